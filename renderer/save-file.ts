import type { DesktopBridge } from './api/connection.js';

/**
 * Saves an exported file: through the desktop bridge's save dialog in Electron, or as a
 * browser download otherwise. Returns false when the user cancelled the dialog.
 */
export async function saveFile(bridge: DesktopBridge | undefined, name: string, content: string | Uint8Array, type: string): Promise<boolean> {
  if (bridge) return (await bridge.saveFile(name, content)).saved;
  const blob = new Blob([typeof content === 'string' ? content : content.slice().buffer], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return true;
}

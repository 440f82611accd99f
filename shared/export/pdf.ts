import { inlineText, parseMarkdown } from './markdown.js';

/**
 * The note as a PDF (A4, Helvetica), headings bold, lists indented. jsPDF is loaded on demand so
 * the interface's first load stays small. The standard PDF fonts cover Latin-1 only; other
 * characters are replaced rather than dropped silently.
 */
export async function noteToPdf(markdown: string, title: string): Promise<Uint8Array> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'pt', format: 'a4', compress: true });
  doc.setProperties({ title, creator: 'Clindoc' });
  const margin = 56;
  const width = doc.internal.pageSize.getWidth() - margin * 2;
  const bottom = doc.internal.pageSize.getHeight() - margin;
  let y = margin;
  const latin1 = (s: string): string => s.replace(/[^\x00-\xff]/g, '?');
  const write = (text: string, size: number, bold: boolean, indent = 0, gapAfter = 6): void => {
    doc.setFont('helvetica', bold ? 'bold' : 'normal');
    doc.setFontSize(size);
    const lines = doc.splitTextToSize(latin1(text), width - indent) as string[];
    const lineHeight = size * 1.3;
    for (const line of lines) {
      if (y + lineHeight > bottom) {
        doc.addPage();
        y = margin;
      }
      doc.text(line, margin + indent, y + size);
      y += lineHeight;
    }
    y += gapAfter;
  };
  write(title, 16, true, 0, 10);
  for (const b of parseMarkdown(markdown)) {
    if (b.kind === 'heading') write(inlineText(b.inlines), b.level <= 2 ? 13 : 11, true, 0, 4);
    else if (b.kind === 'paragraph') write(inlineText(b.inlines), 10.5, false);
    else if (b.kind === 'list') {
      b.items.forEach((it, i) => write(`${b.ordered ? `${i + 1}.` : '-'} ${inlineText(it)}`, 10.5, false, 14, 2));
      y += 4;
    } else {
      doc.setDrawColor(180);
      doc.line(margin, y, margin + width, y);
      y += 10;
    }
  }
  return new Uint8Array(doc.output('arraybuffer'));
}

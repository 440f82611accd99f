/** The benchmark's command-line arguments (after the script's path). */
export const args = process.argv.slice(2);

/** The value after `--name` on the command line, or undefined when the flag is absent. */
export function arg(name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

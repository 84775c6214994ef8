/**
 * A race's command writers (jobs of a team's own) in words for its page: the program's name and its arguments, as
 * the race's spec holds them. The API shows a server path in a spec under the setting that names its folder, or by
 * its last segment (`…/check_then_append.py`, the script in its job root); here a program is shown by its name and
 * a path by what follows the folder, so no absolute path is ever shown.
 */

/** `…/x`, `$SETTING/…/x` or `/abs/…/x` as the words the page shows: its last segment. */
function shownPath(arg: string): string {
  return arg.startsWith('…/') || arg.startsWith('/') ? (arg.split('/').pop() ?? arg) : arg;
}

/** Writer name → its command in words, for the spec's command writers; the others are not in it. */
export function writerCommands(spec: string): Map<string, string> {
  const out = new Map<string, string>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(spec);
  } catch {
    return out;
  }
  const writers = (parsed as { case?: { writers?: unknown } } | null)?.case?.writers;
  if (!Array.isArray(writers)) return out;
  for (const w of writers as { name?: unknown; operation?: { kind?: unknown; command?: unknown } }[]) {
    const command = w.operation?.command;
    if (w.operation?.kind !== 'command' || typeof w.name !== 'string' || !Array.isArray(command)) continue;
    const [program, ...args] = command.map(String);
    if (program === undefined) continue;
    out.set(w.name, [program.split('/').pop() ?? program, ...args.map(shownPath)].join(' '));
  }
  return out;
}

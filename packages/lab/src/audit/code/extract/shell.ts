/**
 * Settings in shell scripts, read with tree-sitter-bash: `spark-submit … --conf key=value` (and `--conf
 * "key=value"`, `--conf=key=value`, `-c key=value`) on any Spark launcher, the SQL of `spark-sql -e "…"` and of
 * a heredoc fed to a SQL shell (`spark-sql <<EOF … EOF`, `cat <<EOF | spark-sql`), read as SQL; Python handed
 * to `python -c "…"` or a heredoc (`python3 - <<EOF`), read by the Python reader. Comments are never commands.
 */
import type { CodeSetting, Extraction, Extractor } from '../setting';
import { type Embedded, LineIndex } from '../source-map';
import { type Node, parserFor } from '../tree-sitter';
import { pythonSettings } from './python';
import { heredocText, shellWord } from './shell-words';
import { sqlSettings } from './sql';
import { childrenOf, firstError, nodesOf } from './tree-nodes';
import { interpolated, isDeltaConfKey, valuePlace } from './value-place';

/** Launchers that take Spark's `--conf key=value`. */
const SPARK_LAUNCHERS = /^(spark-submit|spark-sql|spark-shell|pyspark|sparkR|spark-class|dbx|databricks-connect)$/;
const SQL_SHELLS = /^(spark-sql|beeline|spark-beeline)$/;
const PYTHONS = /^python(3(\.\d+)?)?$/;

/** A command's name, without its folder: `/opt/spark/bin/spark-submit` is `spark-submit`. */
function commandName(command: Node): string {
  const name = command.childForFieldName('name') ?? childrenOf(command).find((c) => c.type === 'command_name');
  return (name?.text ?? '').split('/').pop() ?? '';
}

/** Commands that run the command their arguments name: `nohup spark-submit …`, `exec`, `time`, `sudo`, `env`. */
const WRAPPERS = /^(nohup|exec|time|sudo|env|nice|timeout)$/;

/** Whether a command runs a Spark launcher, itself or through a wrapper. */
function launchesSpark(command: Node): boolean {
  const name = commandName(command);
  if (SPARK_LAUNCHERS.test(name)) return true;
  if (!WRAPPERS.test(name)) return false;
  return argumentsOf(command).some((arg) => SPARK_LAUNCHERS.test(arg.text.replace(/["']/g, '').split('/').pop() ?? ''));
}

function argumentsOf(command: Node): Node[] {
  return childrenOf(command).filter(
    (child) => child.isNamed && child.type !== 'command_name' && !child.type.includes('redirect'),
  );
}

/** Where a word's content ends in the script: before its closing quote, if any. */
function contentEnd(arg: Node): number {
  return arg.endIndex - (/['"]$/.test(arg.text) ? 1 : 0);
}

/** A `--conf key=value` word (`arg`, its first `skip` characters not the pair): the setting when the key is one the audit reports. */
function confSetting(arg: Node, skip: number, host: LineIndex, file: string): CodeSetting | null {
  const word = shellWord(arg, host.text);
  const text = word.text.slice(skip);
  const eq = text.indexOf('=');
  if (eq <= 0) return null;
  const key = text.slice(0, eq).trim();
  if (!isDeltaConfKey(key)) return null;
  const value = text.slice(eq + 1);
  const start = word.hostOffset(skip + eq + 1);
  const end = Math.max(start, contentEnd(arg));
  const written = host.text.slice(start, end);
  const computed = interpolated(written, value);
  return {
    file,
    ...valuePlace(host, start, end, word.hostOffset(skip)),
    key,
    value: computed ? null : value,
    raw: written,
    constant: !computed,
    kind: 'spark-conf',
    via: '--conf',
    language: 'shell',
    writer: 'spark',
  };
}

/** The `--conf` settings of one command line. */
function launcherConfs(command: Node, host: LineIndex, file: string): CodeSetting[] {
  const args = argumentsOf(command);
  const found: CodeSetting[] = [];
  args.forEach((arg, i) => {
    const word = shellWord(arg, host.text);
    const next = args[i + 1];
    if ((word.text === '--conf' || word.text === '-c') && next) {
      const setting = confSetting(next, 0, host, file);
      if (setting) found.push(setting);
    } else if (word.text.startsWith('--conf=')) {
      const setting = confSetting(arg, '--conf='.length, host, file);
      if (setting) found.push(setting);
    }
  });
  return found;
}

/** The command a heredoc feeds: the one it is written on, or for `cat <<EOF | tool`, the tool. */
function consumerOf(heredoc: Node, command: Node): Node {
  if (commandName(command) !== 'cat') return command;
  const pipeline = childrenOf(heredoc).find((n) => n.type === 'pipeline');
  return (pipeline && childrenOf(pipeline).find((n) => n.type === 'command')) ?? command;
}

/** What a script hands to other languages: SQL pieces and Python pieces, as embedded text. */
interface Handed {
  sql: Embedded[];
  python: Embedded[];
}

function handedOn(root: Node, host: LineIndex): Handed {
  const handed: Handed = { sql: [], python: [] };
  for (const node of nodesOf(root)) {
    if (node.type === 'command') {
      const name = commandName(node);
      const args = argumentsOf(node);
      const flag = SQL_SHELLS.test(name) ? ['-e', '--execute'] : PYTHONS.test(name) ? ['-c'] : [];
      const at = args.findIndex((arg) => flag.includes(arg.text));
      const code = at >= 0 ? args[at + 1] : undefined;
      if (code) (SQL_SHELLS.test(name) ? handed.sql : handed.python).push(shellWord(code, host.text));
    }
    if (node.type === 'heredoc_redirect') {
      const redirected = node.parent;
      const command = redirected ? childrenOf(redirected).find((n) => n.type === 'command') : undefined;
      const body = childrenOf(node).find((n) => n.type === 'heredoc_body');
      const start = childrenOf(node).find((n) => n.type === 'heredoc_start')?.text ?? '';
      if (!redirected || !command || !body) continue;
      const name = commandName(consumerOf(node, command));
      const text = heredocText(body, host.text, !/['"\\]/.test(start));
      if (SQL_SHELLS.test(name)) handed.sql.push(text);
      else if (PYTHONS.test(name)) handed.python.push(text);
    }
  }
  return handed;
}

/** Runs `read` over the script's tree, freeing the tree after. */
async function withTree<T>(text: string, read: (root: Node) => Promise<T>): Promise<T> {
  const parser = await parserFor('bash');
  const tree = parser.parse(text);
  parser.delete();
  if (!tree) throw new Error('tree-sitter-bash returned no tree');
  try {
    return await read(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** The Python a script hands to `python -c` or a heredoc, as embedded text placed in the script. */
export async function shellPython(text: string): Promise<Embedded[]> {
  return withTree(text, async (root) => handedOn(root, new LineIndex(text)).python);
}

export const shellExtractor: Extractor = {
  name: 'shell',
  accepts: (file) => /\.(sh|bash)$/i.test(file),
  async extract(file, text) {
    const host = new LineIndex(text);
    return withTree(text, (root) => readScript(root, host, file));
  },
};

async function readScript(root: Node, host: LineIndex, file: string): Promise<Extraction> {
  const found: Extraction = { settings: [], problems: [] };
  const error = firstError(root);
  if (error) {
    const what = error.isMissing ? `a missing ${error.type}` : 'code it cannot read';
    const message = `the shell script does not parse here (tree-sitter found ${what}); the commands around it are still read`;
    found.problems.push({ file, ...host.at(error.startIndex), message });
  }
  for (const node of nodesOf(root)) {
    if (node.type === 'command' && launchesSpark(node)) found.settings.push(...launcherConfs(node, host, file));
  }
  const handed = handedOn(root, host);
  const reads = [
    ...handed.sql.map((sql) => sqlSettings(sql, host, file, 'spark')),
    ...handed.python.map((python) => pythonSettings(python, host, file)),
  ];
  for (const more of await Promise.all(reads)) {
    found.settings.push(...more.settings);
    found.problems.push(...more.problems);
  }
  found.settings.sort((a, b) => a.line - b.line || a.column - b.column);
  return found;
}

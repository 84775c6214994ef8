/**
 * The tree-sitter grammars the code audit parses with (web-tree-sitter and each grammar's own WebAssembly
 * build, so nothing native is compiled at install): loaded once a process, on first use. tree-sitter parses
 * error-tolerantly, so an excerpt that starts indented or leaves a block open still yields its calls.
 */
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

export type Grammar = 'python' | 'scala' | 'java' | 'bash';

const require = createRequire(import.meta.url);
let ready: Promise<void> | null = null;
const languages = new Map<Grammar, Promise<Language>>();

function language(grammar: Grammar): Promise<Language> {
  let loaded = languages.get(grammar);
  if (!loaded) {
    ready ??= Parser.init();
    loaded = ready.then(() => Language.load(require.resolve(`tree-sitter-${grammar}/tree-sitter-${grammar}.wasm`)));
    languages.set(grammar, loaded);
  }
  return loaded;
}

/** A parser for `grammar`; parsers are cheap, the grammar is loaded once. */
export async function parserFor(grammar: Grammar): Promise<Parser> {
  const loaded = await language(grammar);
  const parser = new Parser();
  parser.setLanguage(loaded);
  return parser;
}

export type { Node, Tree } from 'web-tree-sitter';

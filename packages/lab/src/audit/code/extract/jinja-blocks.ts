/**
 * A dbt model's Jinja, blanked so its SQL parses with positions unchanged: each `{{ … }}` expression becomes an
 * identifier of underscores of the same length (it stands where a table name or a value goes), each `{% … %}`
 * statement and `{# … #}` comment becomes spaces; line breaks stay where they were. The `{{ config(…) }}`
 * expressions are returned with where their inside starts, for the Jinja config reader.
 */

export interface JinjaExpression {
  /** The text between `{{` (or `{{-`) and `}}` (or `-}}`). */
  source: string;
  /** Its offset in the file. */
  offset: number;
}

export interface BlankedJinja {
  /** The file with every Jinja block blanked: same length, same line breaks. */
  sql: string;
  /** Whether the file had any Jinja block. */
  jinja: boolean;
  /** The `{{ config(…) }}` expressions. */
  configs: JinjaExpression[];
}

const BLOCK = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;
const CONFIG = /^\s*config\s*\(/;

function blank(text: string, fill: string): string {
  return text.replace(/[^\n]/g, fill);
}

export function blankJinja(text: string): BlankedJinja {
  const configs: JinjaExpression[] = [];
  let jinja = false;
  const sql = text.replace(BLOCK, (block, offset: number) => {
    jinja = true;
    if (!block.startsWith('{{')) return blank(block, ' ');
    const open = block.startsWith('{{-') ? 3 : 2;
    const close = block.endsWith('-}}') ? 3 : 2;
    const source = block.slice(open, block.length - close);
    if (!CONFIG.test(source)) return blank(block, '_');
    configs.push({ source, offset: offset + open });
    return blank(block, ' ');
  });
  return { sql, jinja, configs };
}

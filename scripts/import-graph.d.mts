/** Types of scripts/import-graph.mjs, for the TypeScript tests that run it. */
export declare const REPO_ROOT: string;
export declare const WORKSPACES: string[];
export interface FolderCycle {
  /** The folders of one strongly connected component, relative to the package root. */
  folders: string[];
  /** For each folder edge inside it, one file-level import behind it: `from -> to`. */
  imports: string[];
}
export declare function specifiers(text: string): string[];
export declare function fileGraph(root: string, aliases?: unknown): Map<string, Set<string>>;
export declare function stronglyConnected(edges: Map<string, Iterable<string>>): string[][];
export declare function folderCycles(root: string, aliases?: unknown): FolderCycle[];

// Types of gen-tw-merge-config.mjs, for its test.
export declare const SRC_DIR: string;
export declare const OUTPUT: string;
export declare function classesInUse(files?: string[]): string[];
export declare function deriveConfig(classes: string[]): {
  classGroups: Record<string, string[]>;
  conflictingClassGroups: Record<string, string[]>;
};
export declare function generateConfigSource(): string;

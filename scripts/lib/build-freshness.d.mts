/** null when dist/ is a complete build of the current sources; otherwise why it is not. */
export function staleBuildReason(root: string): string | null;

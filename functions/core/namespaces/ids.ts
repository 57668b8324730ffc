/** A workspace's default namespace shares its ULID: `wks_01H…` has `ns_01H…`. */
export const defaultNamespaceId = (workspaceId: string): string => `ns_${workspaceId.slice(workspaceId.indexOf('_') + 1)}`;

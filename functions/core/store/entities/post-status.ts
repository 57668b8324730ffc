/** A post's states: plain values, apart from the entity, so that the schemas naming them load no ElectroDB. */
export const postStatuses = ['draft', 'published', 'archived'] as const;
export type PostStatus = (typeof postStatuses)[number];

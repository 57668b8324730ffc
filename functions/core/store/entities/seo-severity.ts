/**
 * How serious an SEO issue is, most serious first. Apart from the entity so that route
 * tables, which every bundle holds through the registry, name them without ElectroDB.
 */
export const seoSeverities = ['critical', 'high', 'medium', 'low', 'info'] as const;

/**
 * The states of a webhook delivery (the spec's state table). Apart from the entity so that
 * route tables, which every bundle holds through the registry, name them without ElectroDB.
 */
export const deliveryStatuses = ['pending', 'retrying', 'success', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/**
 * `npm run docs`: rewrites the guides' generated tables in place: the endpoints and the map
 * of their code (from the route registry and the code it wires), the deployment's settings
 * (lib/deploy-config.ts), the event catalogue, and the bench's figures (from the committed
 * bench/results.json). Their unit tests fail while they differ.
 */
import { configurationTable } from '#lib/docs/configuration-table';
import { endpointMap } from '#lib/docs/endpoint-map';
import { endpointTable } from '#lib/docs/endpoint-table';
import { eventCatalogueTable } from '#lib/docs/event-catalogue';
import { rewriteGeneratedSection } from '#lib/docs/generated-section';
import { committedPerformanceTables, performanceGuide } from '#lib/docs/performance-tables';

rewriteGeneratedSection('docs/endpoints.md', 'endpoints', endpointTable());
rewriteGeneratedSection('docs/endpoints.md', 'endpoint-map', endpointMap());
rewriteGeneratedSection('docs/operations.md', 'deploy-configuration', configurationTable());
rewriteGeneratedSection('docs/webhooks.md', 'event-catalogue', eventCatalogueTable());
rewriteGeneratedSection(performanceGuide.file, performanceGuide.section, committedPerformanceTables());

/**
 * `npm run docs`: rewrites the guides' generated tables in place: the endpoints (from the
 * route registry), the deployment's settings (lib/deploy-config.ts), the event catalogue, and the bench's figures (from the committed
 * bench/results.json). Their unit tests fail while they differ.
 */
import { configurationTable } from '#lib/docs/configuration-table';
import { endpointTable } from '#lib/docs/endpoint-table';
import { eventCatalogueTable } from '#lib/docs/event-catalogue';
import { rewriteGeneratedSection } from '#lib/docs/generated-section';
import { committedPerformanceTables, performanceGuide } from '#lib/docs/performance-tables';

rewriteGeneratedSection('docs/endpoints.md', 'endpoints', endpointTable());
rewriteGeneratedSection('docs/operations.md', 'deploy-configuration', configurationTable());
rewriteGeneratedSection('docs/webhooks.md', 'event-catalogue', eventCatalogueTable());
rewriteGeneratedSection(performanceGuide.file, performanceGuide.section, committedPerformanceTables());

import type * as z from 'zod/mini';
import { pixelSettingsViewOf } from '#core/pixel/pixel-settings';
import type { WorkspaceItem } from '#core/store/items';
import type { workspace, workspaceSummary } from './workspace-schemas.ts';

/** A workspace as the API shows it; lists leave out `settings` (single-resource field). */
export function workspaceView(item: WorkspaceItem): z.output<typeof workspace> {
  return {
    id: item.id,
    name: item.name,
    slug: item.slug,
    tier: item.tier,
    settings: { timezone: item.settings.timezone, locale: item.settings.locale, pixel: pixelSettingsViewOf(item.settings.pixel) },
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}

export function workspaceSummaryView(item: WorkspaceItem): z.output<typeof workspaceSummary> {
  const { settings: _settings, ...summary } = workspaceView(item);
  return summary;
}

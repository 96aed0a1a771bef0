import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppHost, StoreState } from '../../common/config/app-host';
import { Database } from '../../common/database/database.service';
import { Metrics } from '../../common/metrics/metrics';
import { RecordAssetActivityHandler } from '../assets/events/asset-activity.event';
import { FormatClassifier } from '../assets/format-classifier';
import { ModelEnrichment } from '../assets/model-enrichment';
import { McpSessions } from '../mcp/mcp-sessions';
import { SearchIndex } from '../search/search-index.service';
import { StreamHub } from '../streams/stream-hub';

/**
 * The gauges of what this instance holds and has waiting, each read from its owner when
 * Prometheus scrapes (nothing is counted on the request path). Only queues that exist are
 * shown: SQLite's write queue (PostgreSQL takes each transaction on a pooled connection and
 * queues nothing of Trove's), the formats left to the classifier, the activities waiting for
 * their batch, the assets waiting for the enrichment model (only while one is configured).
 */
@Injectable()
export class StateGauges implements OnApplicationShutdown {
  private readonly state: StoreState;

  constructor(
    private readonly host: AppHost,
    metrics: Metrics,
    db: Database,
    hub: StreamHub,
    mcp: McpSessions,
    classifier: FormatClassifier,
    modelEnrichment: ModelEnrichment,
    activities: RecordAssetActivityHandler,
    search: SearchIndex,
  ) {
    this.state = {
      get open() {
        return db.open;
      },
      subscribers: () => [...hub.subscribers()],
      get mcpSessions() {
        return mcp.size;
      },
      queues: () => {
        const depths: Array<[string, number]> = [
          ['format_classifier', classifier.queued],
          ['activities', activities.waiting],
        ];
        if (db.dialect === 'sqlite') depths.push(['database_writes', db.queuedWrites]);
        if (modelEnrichment.enabled) depths.push(['model_enrichment', modelEnrichment.queued]);
        return depths;
      },
    };
    host.census.add(this.state);
    // A team deployment's stores are apps of their own (docs/TEAMS.md): the figures are their sums.
    const apps = () => [...host.census];
    metrics.gaugeBy(
      'trove_stream_subscribers',
      'Open WebSocket stream sockets of this instance, by stream path',
      'stream',
      () => summed(apps().flatMap((app) => app.subscribers())),
    );
    metrics.gauge('trove_mcp_sessions', 'Open MCP SSE sessions held by this instance', () =>
      apps().reduce((n, app) => n + app.mcpSessions, 0),
    );
    metrics.gauge(
      'trove_open_stores',
      'Stores (databases) this instance has open',
      () => apps().filter((app) => app.open).length,
    );
    metrics.gaugeBy(
      'trove_queue_depth',
      'Work waiting in the background queues of this instance, by queue',
      'queue',
      () => summed(apps().flatMap((app) => app.queues())),
    );
    metrics.gauge(
      'trove_search_reindexing',
      '1 while this instance re-indexes every asset with a newer search analysis, else 0',
      () => (search.reindexRunning ? 1 : 0),
    );
  }

  onApplicationShutdown(): void {
    this.host.census.delete(this.state);
  }
}

/** Pairs with the same label added up, in the order labels first appear. */
function summed(pairs: Array<[string, number]>): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const [label, value] of pairs) totals.set(label, (totals.get(label) ?? 0) + value);
  return [...totals];
}

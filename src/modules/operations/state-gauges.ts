import { Injectable } from '@nestjs/common';
import { Database } from '../../common/database/database.service';
import { Metrics } from '../../common/metrics/metrics';
import { RecordAssetActivityHandler } from '../assets/events/asset-activity.event';
import { FormatClassifier } from '../assets/format-classifier';
import { McpSessions } from '../mcp/mcp-sessions';
import { SearchIndex } from '../search/search-index.service';
import { StreamHub } from '../streams/stream-hub';

/**
 * The gauges of what this instance holds and has waiting, each read from its owner when
 * Prometheus scrapes (nothing is counted on the request path). Only queues that exist are
 * shown: SQLite's write queue (PostgreSQL takes each transaction on a pooled connection and
 * queues nothing of Trove's), the formats left to the classifier, the activities waiting for
 * their batch.
 */
@Injectable()
export class StateGauges {
  constructor(
    metrics: Metrics,
    db: Database,
    hub: StreamHub,
    mcp: McpSessions,
    classifier: FormatClassifier,
    activities: RecordAssetActivityHandler,
    search: SearchIndex,
  ) {
    metrics.gaugeBy('trove_stream_subscribers', 'Open WebSocket stream sockets of this instance, by stream path', 'stream', () => hub.subscribers());
    metrics.gauge('trove_mcp_sessions', 'Open MCP SSE sessions held by this instance', () => mcp.size);
    metrics.gauge('trove_open_stores', 'Stores (databases) this instance has open', () => (db.open ? 1 : 0));
    metrics.gaugeBy('trove_queue_depth', 'Work waiting in the background queues of this instance, by queue', 'queue', () => {
      const depths: Array<[string, number]> = [
        ['format_classifier', classifier.queued],
        ['activities', activities.waiting],
      ];
      if (db.dialect === 'sqlite') depths.push(['database_writes', db.queuedWrites]);
      return depths;
    });
    metrics.gauge('trove_search_reindexing', '1 while this instance re-indexes every asset with a newer search analysis, else 0', () =>
      search.reindexRunning ? 1 : 0,
    );
  }
}

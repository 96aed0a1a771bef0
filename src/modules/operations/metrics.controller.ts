import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { METRICS_ROUTE } from '../../common/http/access';
import { METRICS_CONTENT_TYPE, Metrics } from '../../common/metrics/metrics';

/**
 * The Prometheus scrape endpoint. Who may read it is the access policy's (access.ts): with
 * TROVE_METRICS_TOKEN set, that token or an API key; otherwise the rule of every route.
 */
@ApiTags('Operations')
@Controller()
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get(METRICS_ROUTE.slice(1))
  @Header('content-type', METRICS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOperation({
    operationId: 'getMetrics',
    summary:
      'Prometheus metrics (text exposition format): requests, latency, streams, MCP sessions, stores, queues, the process',
    description:
      'With TROVE_METRICS_TOKEN set, needs `Authorization: Bearer <that token or an API key>`; otherwise the access rule of every route.',
  })
  @ApiOkResponse({
    schema: {
      type: 'string',
      example: 'trove_http_requests_total{method="GET",route="/asset/:asset",status="200"} 12',
    },
  })
  scrape(): Promise<string> {
    return this.metrics.exposition();
  }
}

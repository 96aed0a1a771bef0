import { Module } from '@nestjs/common';
import { MetricsModule } from '../../common/metrics/metrics.module';
import { AssetsModule } from '../assets/assets.module';
import { McpModule } from '../mcp/mcp.module';
import { SearchModule } from '../search/search.module';
import { StreamsModule } from '../streams/streams.module';
import { MetricsController } from './metrics.controller';
import { StateGauges } from './state-gauges';

/** What an operator watches: the Prometheus metrics at GET /metrics (docs/OPERATIONS.md). */
@Module({
  imports: [MetricsModule, AssetsModule, SearchModule, StreamsModule, McpModule],
  controllers: [MetricsController],
  providers: [StateGauges],
})
export class OperationsModule {}

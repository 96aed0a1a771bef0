import { Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The app's Prometheus metrics (one registry per app; the process's own metrics once per process). */
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}

import { Module } from '@nestjs/common';
import { OutboundHttp } from './outbound-http';

/** Server-side HTTP (providers, website metadata), guarded against reaching private addresses; imported by its users (the models module's providers). */
@Module({ providers: [OutboundHttp], exports: [OutboundHttp] })
export class NetModule {}

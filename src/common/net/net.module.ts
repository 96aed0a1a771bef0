import { Global, Module } from '@nestjs/common';
import { OutboundHttp } from './outbound-http';

/** Server-side HTTP (providers, website metadata), guarded against reaching private addresses. */
@Global()
@Module({ providers: [OutboundHttp], exports: [OutboundHttp] })
export class NetModule {}

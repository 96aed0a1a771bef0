import { Injectable, OnModuleDestroy } from '@nestjs/common';
import ipaddr from 'ipaddr.js';
import { LookupAddress, lookup } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent, RequestInit, Response, buildConnector } from 'undici';
import { AppConfig } from '../config/app-config';

/** A server-side request refused because it would reach a loopback, private or reserved address. */
class OutboundRefusedError extends Error {
  constructor(host: string, address: string) {
    super(
      `refused to connect to ${host} (${address}): loopback, private and reserved addresses are not reachable unless configured (TROVE_OUTBOUND_ALLOW)`,
    );
    this.name = 'OutboundRefusedError';
  }
}

/** Only public unicast addresses are reachable by default. */
function isPublic(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

const bare = (host: string): string => host.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** undici, loaded with the first outbound request: most servers make none. */
interface Client {
  agent: Agent;
  fetch: typeof import('undici').fetch;
}

/**
 * Every request Trove makes to another server (model providers, website metadata) goes through
 * here. The address is checked at connect time, after DNS resolution, on every connection
 * (redirects included): a name that resolves to a loopback or private address (DNS rebinding,
 * a redirect to 169.254.169.254, ...) is refused unless that host was configured: a provider's
 * base URL, or TROVE_OUTBOUND_ALLOW.
 */
@Injectable()
export class OutboundHttp implements OnModuleDestroy {
  private readonly allowed: Set<string>;
  private client: Promise<Client> | null = null;

  constructor(config: AppConfig) {
    this.allowed = new Set(config.outboundAllow.map(bare));
  }

  private load(): Promise<Client> {
    this.client ??= import('undici').then(({ Agent, buildConnector, fetch }) => ({
      agent: new Agent({ connect: this.connector(buildConnector) }),
      fetch,
    }));
    return this.client;
  }

  /** Connects as undici does, then refuses an address that is not permitted. */
  private connector(build: typeof buildConnector): buildConnector.connector {
    const base = build({ timeout: 10_000 });
    return (options, callback) => {
      const host = bare(options.hostname);
      if (isIP(host) && !this.permits(host, host)) return callback(new OutboundRefusedError(host, host), null);
      base({ ...options, ...(isIP(host) ? {} : { lookup: this.lookup(host) }) } as typeof options, (error, socket) => {
        if (error) return callback(error, null);
        // The address actually connected to, whatever resolved it.
        const address = socket!.remoteAddress ?? '';
        if (!this.permits(host, address)) {
          socket!.destroy();
          return callback(new OutboundRefusedError(host, address), null);
        }
        callback(null, socket!);
      });
    };
  }

  /** Lets requests reach `url`'s host even when it is local (a configured provider's base URL). */
  allow(url: string): void {
    this.allowed.add(bare(new URL(url).hostname));
  }

  permits(host: string, address: string): boolean {
    return isPublic(address) || this.allowed.has(bare(host));
  }

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const { agent, fetch } = await this.load();
    return fetch(url, { ...init, dispatcher: agent });
  }

  async onModuleDestroy(): Promise<void> {
    if (this.client) await (await this.client).agent.close();
  }

  /** DNS resolution that fails for names resolving to an address that is not permitted. */
  private lookup(host: string) {
    return (
      hostname: string,
      options: object,
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const refused = addresses.find((a) => !this.permits(host, a.address));
        if (refused) return callback(new OutboundRefusedError(host, refused.address), []);
        if ((options as { all?: boolean }).all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
  }
}

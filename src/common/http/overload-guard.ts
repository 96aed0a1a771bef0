import type { FastifyInstance, FastifyReply } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { AppConfig } from '../config/app-config';
import { errorBody } from '../errors/error-body';

/** Seconds a client is told to wait when the process is overloaded. */
const OVERLOAD_RETRY_AFTER = 5;
/** How often the event-loop delay and memory are sampled for the overload guard. */
const PRESSURE_SAMPLE_MS = 200;

export type PressureType = 'eventLoopDelay' | 'rssBytes';
/** The process's overload now, or null: what under-pressure last sampled. */
export type PressureGauge = () => PressureType | null;

/**
 * Overload: 503 + Retry-After while the event loop lags or memory is past its bound. Both are the
 * process's, not an app's: the process's own app samples them (under-pressure), and a team store's
 * app asks that `gauge` instead of sampling again (each sampler reads the whole heap's statistics
 * five times a second, which a hundred open stores turned into the idle process's main work).
 * The boot's own synchronous work (models read, modules
 * compiled) lags the loop once, before the app is ready: a delay sampled then is not overload,
 * and the first requests go through.
 */
export async function guardOverload(fastify: FastifyInstance, config: AppConfig, gauge?: PressureGauge): Promise<void> {
  let readyAt = Number.POSITIVE_INFINITY;
  fastify.addHook('onReady', (done) => {
    readyAt = Date.now();
    done();
  });
  const booting = (type: PressureType) => type === 'eventLoopDelay' && !(Date.now() - readyAt > 2 * PRESSURE_SAMPLE_MS);
  const refuse = (reply: FastifyReply, type: PressureType) =>
    reply
      .status(503)
      .header('retry-after', String(OVERLOAD_RETRY_AFTER))
      .send(errorBody(503, `overloaded (${type}); retry after ${OVERLOAD_RETRY_AFTER} s`));

  if (gauge) {
    fastify.addHook('onRequest', (_request, reply, done) => {
      const type = gauge();
      if (type && !booting(type)) return void refuse(reply, type);
      done();
    });
    return;
  }
  if (config.maxEventLoopDelayMs <= 0 && config.maxRssMb <= 0) return;
  await fastify.register(underPressure, {
    maxEventLoopDelay: config.maxEventLoopDelayMs,
    maxRssBytes: config.maxRssMb * 1024 * 1024,
    sampleInterval: PRESSURE_SAMPLE_MS,
    retryAfter: OVERLOAD_RETRY_AFTER,
    pressureHandler: (_request, reply, type) => {
      if (booting(type as PressureType)) return undefined;
      void refuse(reply, type as PressureType);
    },
  });
}

/** The gauge of an app whose overload guard samples (`guardOverload` without a gauge), for the apps that share it. */
export function pressureGauge(fastify: FastifyInstance, config: AppConfig): PressureGauge {
  if (!fastify.hasDecorator('memoryUsage')) return () => null;
  const maxRssBytes = config.maxRssMb * 1024 * 1024;
  return () => {
    const now = fastify.memoryUsage();
    if (config.maxEventLoopDelayMs > 0 && now.eventLoopDelay > config.maxEventLoopDelayMs) return 'eventLoopDelay';
    if (maxRssBytes > 0 && now.rssBytes > maxRssBytes) return 'rssBytes';
    return null;
  };
}

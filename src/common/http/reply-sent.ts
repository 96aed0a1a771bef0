import type { FastifyReply } from 'fastify';

/**
 * Settles once the response has been sent, or its connection closed first: what a route that
 * acts after answering (a restart, a shutdown) waits for.
 */
export function replySent(reply: FastifyReply): Promise<void> {
  const response = reply.raw;
  return response.closed ? Promise.resolve() : new Promise((resolve) => response.once('close', () => resolve()));
}

import { Header, applyDecorators } from '@nestjs/common';
import { ApiProduces } from '@nestjs/swagger';

/** Endpoints typed "string" answer text/plain with the raw string. */
export const TextResponse = () =>
  applyDecorators(Header('content-type', 'text/plain; charset=utf-8'), ApiProduces('text/plain'));

import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsArray, IsDefined, IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';

/** A nested object validated by its own DTO class. */
export function Nested(type: () => new () => object, options: { optional?: boolean; each?: boolean } = {}) {
  return applyDecorators(
    options.optional ? IsOptional() : IsDefined(),
    options.each ? IsArray() : IsObject(),
    ValidateNested({ each: options.each }),
    Type(type),
  );
}

/** One of the enum values clients send (generated from the SDK: src/common/wire/enums.ts). */
export function OneOf(values: readonly string[], options: { optional?: boolean } = {}) {
  // The enum is declared explicitly: the Swagger plugin's own reading of a union type is not
  // ordered the same way by every compiler run, which would make openapi.json drift.
  const doc = options.optional ? ApiPropertyOptional({ enum: [...values] }) : ApiProperty({ enum: [...values] });
  return applyDecorators(
    doc,
    ...(options.optional ? [IsOptional()] : [IsDefined()]),
    IsIn(values as string[], {
      message: `$property must be one of ${values.length > 12 ? values.slice(0, 12).join(', ') + ', ...' : values.join(', ')}`,
    }),
  );
}

/**
 * Fields of an SDK model that Trove stores nothing for but that clients legitimately send
 * back (round-tripping an object we served, or SDK defaults). Accepted, not interpreted.
 */
export function PassThrough(target: object, names: string[]): void {
  for (const name of names) {
    IsOptional()(target, name);
    Allow()(target, name);
    ApiPropertyOptional({ description: 'accepted for compatibility; not interpreted', type: Object })(target, name);
  }
}

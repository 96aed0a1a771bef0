// Runs @nestjs/swagger's CLI plugin inside ts-jest, exactly as nest-cli.json does for `nest build`.
const plugin = require('@nestjs/swagger/plugin');

module.exports = {
  name: 'nestjs-swagger-transformer',
  version: 1,
  factory: (compiler) =>
    plugin.before(
      { classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts', '.wire.ts'] },
      compiler.program,
    ),
};

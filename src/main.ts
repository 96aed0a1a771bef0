import 'reflect-metadata';
import { ConfigError, loadConfig } from './common/config/app-config';
import { startServer } from './bootstrap';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  await startServer(config);
}

main().catch((error) => {
  console.error('Trove failed to start:', error?.message ?? error);
  process.exit(1);
});

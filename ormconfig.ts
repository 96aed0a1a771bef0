// TypeORM CLI entry (migration:generate / migration:run). Same options as the app.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/common/config/app-config';
import { dataSourceOptions } from './src/common/database/database.options';

export default new DataSource({ ...dataSourceOptions(loadConfig(process.env)), migrationsRun: false });

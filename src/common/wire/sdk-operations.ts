import table from './sdk-operations-table.json';

/**
 * Every operation of the official SDK (@pieces.app/pieces-os-client, MIT): the table
 * scripts/gen-sdk-operations.js generates into sdk-operations-table.json from the SDK's sources.
 */
export interface SdkOperation {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  api: string;
  websocket?: true;
}

/** The SDK version the table was made from. */
export const SDK_VERSION: string = table.sdk;
export const SDK_OPERATIONS: readonly SdkOperation[] = table.operations as SdkOperation[];

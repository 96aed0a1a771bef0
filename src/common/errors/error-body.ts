import { STATUS_CODES } from 'node:http';

/** The one JSON error shape: `{statusCode, error, message}`. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string | string[];
}

export function errorBody(statusCode: number, message: string | string[]): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

const STORAGE_UNAVAILABLE =
  /SQLITE_(FULL|IOERR|BUSY|LOCKED|CANTOPEN|READONLY|NOMEM)|ECONNREFUSED|ECONNRESET|Connection terminated|too many clients|57P0[123]|53[0-9]00/;

/** A database failure that says nothing about the request: the storage is unavailable. */
export function isStorageUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; driverError?: { code?: string; message?: string } };
  const text = [e?.code, e?.message, e?.driverError?.code, e?.driverError?.message].filter(Boolean).join(' ');
  return STORAGE_UNAVAILABLE.test(text);
}

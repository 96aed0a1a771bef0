/** One MCP endpoint: the protocol version it speaks and its absolute URL. */
export class ModelContextProtocolSchemaVersionWire {
  version: string;
  entry_endpoint: string;
}

export class ModelContextProtocolSchemaVersionsWire {
  iterable: ModelContextProtocolSchemaVersionWire[];
}

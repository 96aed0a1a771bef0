import { OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { QgptStreamSession } from './qgpt-stream.session';

/** ws /qgpt/stream on the HTTP server's port (WsAdapter, installed in bootstrap). */
@WebSocketGateway({ path: '/qgpt/stream' })
export class QgptStreamGateway implements OnGatewayConnection {
  constructor(private readonly session: QgptStreamSession) {}

  handleConnection(client: WebSocket): void {
    this.session.attach(client);
  }
}

import { OnGatewayConnection, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { STREAM_PATHS, StreamHub } from './stream-hub';

/** One gateway per path (WsAdapter routes by exact path); each hands its sockets to the hub. */
function gateway(path: string) {
  @WebSocketGateway({ path })
  class StreamGateway implements OnGatewayConnection {
    constructor(readonly hub: StreamHub) {}

    handleConnection(socket: WebSocket, request: IncomingMessage): void {
      this.hub.attach(socket, request, path);
    }
  }
  return StreamGateway;
}

const AssetIdentifiersGateway = gateway(STREAM_PATHS.assetIdentifiers);
const ConversationIdentifiersGateway = gateway(STREAM_PATHS.conversationIdentifiers);
const ModelIdentifiersGateway = gateway(STREAM_PATHS.modelIdentifiers);
const WorkstreamSummaryIdentifiersGateway = gateway(STREAM_PATHS.workstreamSummaryIdentifiers);
const AnchorIdentifiersGateway = gateway(STREAM_PATHS.anchorIdentifiers);
const RangeIdentifiersGateway = gateway(STREAM_PATHS.rangeIdentifiers);
const PersonIdentifiersGateway = gateway(STREAM_PATHS.personIdentifiers);
const SensitiveIdentifiersGateway = gateway(STREAM_PATHS.sensitiveIdentifiers);
const AssetsGateway = gateway(STREAM_PATHS.assets);
const AssetTransferablesGateway = gateway(STREAM_PATHS.assetTransferables);
const StreamHealthGateway = gateway(STREAM_PATHS.health);
const ApplicationIdentifiersGateway = gateway(STREAM_PATHS.applicationIdentifiers);
const UserGateway = gateway(STREAM_PATHS.user);
const LtmStatusGateway = gateway(STREAM_PATHS.ltmStatus);
const ModelDownloadGateway = gateway(STREAM_PATHS.modelDownload);

export const STREAM_GATEWAYS = [
  AssetIdentifiersGateway,
  ConversationIdentifiersGateway,
  ModelIdentifiersGateway,
  WorkstreamSummaryIdentifiersGateway,
  AnchorIdentifiersGateway,
  RangeIdentifiersGateway,
  PersonIdentifiersGateway,
  SensitiveIdentifiersGateway,
  AssetsGateway,
  AssetTransferablesGateway,
  StreamHealthGateway,
  ApplicationIdentifiersGateway,
  UserGateway,
  LtmStatusGateway,
  ModelDownloadGateway,
];

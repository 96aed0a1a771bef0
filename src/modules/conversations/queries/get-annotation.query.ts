import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Database } from '../../../common/database/database.service';
import { NotFound } from '../../../common/errors/domain-errors';
import { AssetReader } from '../../assets/asset.reader';
import { annotationWire } from '../../assets/wire/asset.wire';
import { ConversationReader } from '../conversation.reader';
import { AnnotationOfRecordWire, conversationAnnotationWire } from '../wire/conversation.wire';

/**
 * GET /annotation/{annotation}: an annotation of a conversation (a summary, ...) or of an asset
 * (a description, ...), each read by the module that owns it; 404 when neither has it (or its
 * owner was deleted).
 */
export class GetAnnotationQuery extends Query<AnnotationOfRecordWire> {
  constructor(readonly annotationId: string) {
    super();
  }
}

@QueryHandler(GetAnnotationQuery)
export class GetAnnotationHandler implements IQueryHandler<GetAnnotationQuery> {
  constructor(
    private readonly db: Database,
    private readonly conversations: ConversationReader,
    private readonly assets: AssetReader,
  ) {}

  execute({ annotationId }: GetAnnotationQuery): Promise<AnnotationOfRecordWire> {
    return this.db.read(async (em) => {
      const ofConversation = await this.conversations.annotation(em, annotationId);
      if (ofConversation) return conversationAnnotationWire(ofConversation);
      const ofAsset = await this.assets.annotation(em, annotationId);
      if (ofAsset) return annotationWire(ofAsset);
      throw new NotFound(`annotation ${annotationId} not found`);
    });
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { ChangeAssetLinkCommand } from './commands/change-asset-link.command';
import { CreateLinkRecordCommand } from './commands/create-link-record.command';
import { DeleteLinkRecordCommand } from './commands/delete-link-record.command';
import { UpdateLinkRecordCommand } from './commands/update-link-record.command';
import { ExistentMetadataDto, SeededTagDto, TagUpdateDto } from './dto/records.dto';
import { SearchInputDto } from './dto/workstream-summary.dto';
import { FindLinkRecordQuery } from './queries/find-link-record.query';
import { GetLinkRecordQuery } from './queries/get-link-record.query';
import { ListLinkRecordsQuery } from './queries/list-link-records.query';
import { SearchLinkRecordsQuery } from './queries/search-link-records.query';
import { ExistingMetadataWire, SearchedTagsWire, TagRecordWire, TagRecordsWire } from './wire/records.wire';

/**
 * Tags as records of their own, beyond the core interface: the SDKs' TagsApi and TagApi (the Python
 * SDK's BasicTag creates, finds, renames, links and deletes them; Raycast reads each tag of an
 * asset by id). A tag is one record per text, linked to assets both ways: it lists its assets,
 * each asset lists it. `transferables` is accepted everywhere (a tag has no content to omit).
 */
@ApiTags('Tags')
@Controller()
export class TagsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('tags')
  @ApiOperation({
    operationId: 'tagsSnapshot',
    summary: 'Every tag, most recent first, each with its assets (streamed)',
  })
  @ApiOkResponse({ type: TagRecordsWire })
  list(@Flag('transferables') transferables?: boolean): Promise<StreamableFile> {
    void transferables;
    return this.queries.execute(new ListLinkRecordsQuery('tag'));
  }

  @Post('tags/create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'tagsCreateNewTag',
    summary: 'A tag by its text (the existing one of that text comes back), linked to `asset` when given',
  })
  @ApiBody({ type: SeededTagDto, required: false })
  @ApiOkResponse({ type: TagRecordWire })
  create(@Body() seed: SeededTagDto, @Flag('transferables') transferables?: boolean): Promise<TagRecordWire> {
    void transferables;
    return this.commands.execute(new CreateLinkRecordCommand('tag', seed)) as Promise<TagRecordWire>;
  }

  @Post('tags/exists')
  @HttpCode(200)
  @ApiOperation({ operationId: 'tagsExists', summary: 'The tag of a text, or `{}` when there is none' })
  @ApiBody({ type: ExistentMetadataDto, required: false })
  @ApiOkResponse({ type: ExistingMetadataWire })
  exists(@Body() input: ExistentMetadataDto): Promise<ExistingMetadataWire> {
    return this.queries.execute(new FindLinkRecordQuery('tag', input));
  }

  @Post('tags/search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchTags',
    summary: 'Tags whose text contains a word of the query (most words first)',
  })
  @ApiBody({ type: SearchInputDto, required: false })
  @ApiOkResponse({ type: SearchedTagsWire })
  search(@Body() input: SearchInputDto, @Flag('transferables') transferables?: boolean): Promise<SearchedTagsWire> {
    void transferables;
    return this.queries.execute(new SearchLinkRecordsQuery('tag', input)) as Promise<SearchedTagsWire>;
  }

  @Post('tags/:tag/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'tagsDeleteSpecificTag',
    summary: 'Delete a tag and its links (its assets are announced)',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Param('tag', uuidParam('tag')) tag: string): Promise<void> {
    await this.commands.execute(new DeleteLinkRecordCommand('tag', tag));
  }

  @Get('tag/:tag')
  @ApiOperation({ operationId: 'tagsSpecificTagSnapshot', summary: 'One tag with its assets (404 when unknown)' })
  @ApiOkResponse({ type: TagRecordWire })
  get(
    @Param('tag', uuidParam('tag')) tag: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<TagRecordWire> {
    void transferables;
    return this.queries.execute(new GetLinkRecordQuery('tag', tag)) as Promise<TagRecordWire>;
  }

  @Post('tag/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'tagUpdate',
    summary:
      'A round-tripped Tag: its text and category (its assets are re-indexed); 409 when another tag has the text',
  })
  @ApiBody({ type: TagUpdateDto, required: false })
  @ApiOkResponse({ type: TagRecordWire })
  update(@Body() tag: TagUpdateDto, @Flag('transferables') transferables?: boolean): Promise<TagRecordWire> {
    void transferables;
    return this.commands.execute(new UpdateLinkRecordCommand('tag', tag)) as Promise<TagRecordWire>;
  }

  @Post('tag/:tag/assets/associate/:asset')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'tagAssociateAsset',
    summary: 'Link the tag to an asset (as POST /asset/{asset}/tags/associate/{tag})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associate(
    @Param('tag', uuidParam('tag')) tag: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, 'tag', tag, true));
  }

  @Post('tag/:tag/assets/disassociate/:asset')
  @HttpCode(204)
  @ApiOperation({ operationId: 'tagDisassociateAsset', summary: 'Unlink the tag from an asset; both stay' })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociate(
    @Param('tag', uuidParam('tag')) tag: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, 'tag', tag, false));
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Flag, uuidParam } from '../../common/wire/flags';
import { ChangeAssetLinkCommand } from '../assets/commands/change-asset-link.command';
import { ExistentMetadataDto, SeededWebsiteDto, WebsiteUpdateDto } from '../assets/dto/records.dto';
import { SearchInputDto } from '../assets/dto/workstream-summary.dto';
import { FindLinkRecordQuery } from '../assets/queries/find-link-record.query';
import { SearchLinkRecordsQuery } from '../assets/queries/search-link-records.query';
import {
  ExistingMetadataWire,
  SearchedWebsitesWire,
  WebsiteRecordWire,
  WebsiteRecordsWire,
} from '../assets/wire/records.wire';
import { ChangeConversationLinkCommand } from './commands/change-conversation-link.command';
import { ChangeWebsiteCommand } from './commands/change-website.command';
import { GetGroundingRecordQuery } from './queries/get-grounding-record.query';
import { ListGroundingRecordsQuery } from './queries/list-grounding-records.query';

/**
 * Websites as records of their own, beyond the core interface: the SDKs' WebsitesApi and WebsiteApi
 * (the Python SDK's BasicWebsite; Raycast reads each website of an asset by id). A website is one
 * record per URL, linked both ways to assets (the assets module's links) and to conversations
 * (this module's), which is why its routes are here. `transferables` is accepted everywhere.
 */
@ApiTags('Websites')
@Controller()
export class WebsitesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('websites')
  @ApiOperation({
    operationId: 'websitesSnapshot',
    summary: 'Every website, most recent first, each with its assets and conversations (streamed)',
  })
  @ApiOkResponse({ type: WebsiteRecordsWire })
  list(@Flag('transferables') transferables?: boolean): Promise<StreamableFile> {
    void transferables;
    return this.queries.execute(new ListGroundingRecordsQuery('websites'));
  }

  @Post('websites/create')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'websitesCreateNewWebsite',
    summary:
      'A website by its URL (the existing one of that URL comes back), linked to `asset` and `conversation` when given',
  })
  @ApiBody({ type: SeededWebsiteDto, required: false })
  @ApiOkResponse({ type: WebsiteRecordWire })
  create(@Body() seed: SeededWebsiteDto, @Flag('transferables') transferables?: boolean): Promise<WebsiteRecordWire> {
    void transferables;
    return this.commands.execute(new ChangeWebsiteCommand({ kind: 'create', seed })) as Promise<WebsiteRecordWire>;
  }

  @Post('websites/exists')
  @HttpCode(200)
  @ApiOperation({ operationId: 'websitesExists', summary: 'The website of a URL, or `{}` when there is none' })
  @ApiBody({ type: ExistentMetadataDto, required: false })
  @ApiOkResponse({ type: ExistingMetadataWire })
  exists(@Body() input: ExistentMetadataDto): Promise<ExistingMetadataWire> {
    return this.queries.execute(new FindLinkRecordQuery('website', input));
  }

  @Post('websites/search')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'searchWebsites',
    summary: 'Websites whose URL or name contains a word of the query (most words first)',
  })
  @ApiBody({ type: SearchInputDto, required: false })
  @ApiOkResponse({ type: SearchedWebsitesWire })
  search(@Body() input: SearchInputDto, @Flag('transferables') transferables?: boolean): Promise<SearchedWebsitesWire> {
    void transferables;
    return this.queries.execute(new SearchLinkRecordsQuery('website', input)) as Promise<SearchedWebsitesWire>;
  }

  @Post('websites/:website/delete')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'websitesDeleteSpecificWebsite',
    summary: 'Delete a website and its links (its assets and conversations are announced)',
  })
  @ApiNoContentResponse({ description: 'deleted' })
  async delete(@Param('website', uuidParam('website')) website: string): Promise<void> {
    await this.commands.execute(new ChangeWebsiteCommand({ kind: 'delete', id: website }));
  }

  @Get('website/:website')
  @ApiOperation({
    operationId: 'websitesSpecificWebsiteSnapshot',
    summary: 'One website with its assets and conversations (404 when unknown)',
  })
  @ApiOkResponse({ type: WebsiteRecordWire })
  get(
    @Param('website', uuidParam('website')) website: string,
    @Flag('transferables') transferables?: boolean,
  ): Promise<WebsiteRecordWire> {
    void transferables;
    return this.queries.execute(new GetGroundingRecordQuery('website', website)) as Promise<WebsiteRecordWire>;
  }

  @Post('website/update')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'websiteUpdate',
    summary:
      'A round-tripped Website: its URL and name (its assets are re-indexed); 409 when another website has the URL',
  })
  @ApiBody({ type: WebsiteUpdateDto, required: false })
  @ApiOkResponse({ type: WebsiteRecordWire })
  update(
    @Body() website: WebsiteUpdateDto,
    @Flag('transferables') transferables?: boolean,
  ): Promise<WebsiteRecordWire> {
    void transferables;
    return this.commands.execute(new ChangeWebsiteCommand({ kind: 'update', website })) as Promise<WebsiteRecordWire>;
  }

  @Post('website/:website/assets/associate/:asset')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'websiteAssociateAsset',
    summary: 'Link the website to an asset (as POST /asset/{asset}/websites/associate/{website})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associateAsset(
    @Param('website', uuidParam('website')) website: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, 'website', website, true));
  }

  @Post('website/:website/assets/disassociate/:asset')
  @HttpCode(204)
  @ApiOperation({ operationId: 'websiteDisassociateAsset', summary: 'Unlink the website from an asset; both stay' })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociateAsset(
    @Param('website', uuidParam('website')) website: string,
    @Param('asset', uuidParam('asset')) asset: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeAssetLinkCommand(asset, 'website', website, false));
  }

  @Post('website/:website/conversations/associate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'websiteAssociateConversation',
    summary: 'Link the website to a conversation (as POST /conversation/{conversation}/websites/associate/{website})',
  })
  @ApiNoContentResponse({ description: 'linked' })
  async associateConversation(
    @Param('website', uuidParam('website')) website: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'website', website, true));
  }

  @Post('website/:website/conversations/disassociate/:conversation')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'websiteDisassociateConversation',
    summary: 'Unlink the website from a conversation; both stay',
  })
  @ApiNoContentResponse({ description: 'unlinked' })
  async disassociateConversation(
    @Param('website', uuidParam('website')) website: string,
    @Param('conversation', uuidParam('conversation')) conversation: string,
  ): Promise<void> {
    await this.commands.execute(new ChangeConversationLinkCommand(conversation, 'website', website, false));
  }
}

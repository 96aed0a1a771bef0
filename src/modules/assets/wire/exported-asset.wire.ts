import { GroupedTimestamp } from '../../../common/wire/common.wire';
import { TransferableStringWire } from './asset.wire';

/** FileFormat: the exported document in `string.raw`. */
export class ExportedFileWire {
  string: TransferableStringWire;
}

export class ExportedAssetWire {
  name: string;
  description: string;
  created: GroupedTimestamp;
  raw: ExportedFileWire;
}

import { GroupedTimestamp } from '../../../common/wire/common.wire';

/** OSServerUpdateStatus: the answer of POST /os/update/check. */
export class OSServerUpdateStatusWire {
  /** UpdatingStatusEnum. */
  status: string;
  updated?: GroupedTimestamp;
}

import { AssetsWire } from '../../assets/wire/asset.wire';
import { SeededConnectorCreationDto } from '../dto/connector.dto';

export class ReuseSuggestionWire {
  suggested: boolean;
  /** Assets the snippet duplicates, best first. */
  assets: AssetsWire;
}

export class SaveSuggestionWire {
  suggested: boolean;
}

export class SuggestionTargetWire {
  seed: SeededConnectorCreationDto;
  /** Similarity of the best candidate, 0-100 (100: an exact duplicate after normalisation). */
  vector: number;
}

/** Answer of POST /{application}/suggestion. */
export class SuggestionWire {
  reuse: ReuseSuggestionWire;
  save: SaveSuggestionWire;
  target: SuggestionTargetWire;
  /** Every saved asset similar to the snippet, best first. */
  assets: AssetsWire;
}

import { InvalidInput } from '../../common/errors/domain-errors';
import { seedText } from '../assets/asset-text';
import { SeedDto } from '../assets/dto/seed.dto';
import { SeededConnectorAssetDto } from './dto/connector.dto';

/** The text of a snippet an integration sent, or a 400 naming `what` is missing. */
export function snippetText(asset: SeededConnectorAssetDto | undefined, what: string): string {
  if (!asset) throw new InvalidInput(`${what} with format.fragment.string.raw is required`);
  return seedText({ asset: { format: asset.format } } as SeedDto);
}

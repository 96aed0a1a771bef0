import { useQuery } from '@tanstack/react-query';
import { useApp } from '../app/context';
import { api } from '../lib/api';
import type { StoreLabel } from '../lib/types';

export interface Stores {
  /** This Trove has users and this user belongs to at least one shared space. */
  team: boolean;
  /** The user's own store first, then their spaces. */
  stores: StoreLabel[];
  /** The store Drive shows now. */
  current: StoreLabel;
  /** Spaces this user may copy into (editor), other than the current one. */
  copyTargets: StoreLabel[];
}

const OWN: StoreLabel = { space: null, name: 'mine', role: 'owner' };

/** The stores of a team deployment this user may read (GET /trove/spaces), and the one Drive shows. */
export function useStores(): Stores {
  const { state } = useApp();
  const query = useQuery({ queryKey: ['stores'], queryFn: api.stores, staleTime: 60_000 });
  const stores = query.data?.iterable ?? [OWN];
  const current = (state.space && stores.find((s) => s.space && s.name === state.space)) || stores[0] || OWN;
  return {
    team: Boolean(query.data?.team) && stores.length > 1,
    stores,
    current,
    copyTargets: stores.filter((s) => s.space && s.role === 'editor' && s.space !== current.space),
  };
}

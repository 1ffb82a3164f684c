import { useCallback } from 'react'
import { useTrades } from '@/api/catalog'

/**
 * A trade's name as the catalog spells it ('HVAC', 'Solar & Wind'); a trade
 * the catalog does not know, or not yet, shows as its id.
 */
export function useTradeName(): (tradeId: string) => string {
  const trades = useTrades()
  return useCallback((tradeId: string) => trades.data?.find((t) => t.id === tradeId)?.name ?? tradeId, [trades.data])
}

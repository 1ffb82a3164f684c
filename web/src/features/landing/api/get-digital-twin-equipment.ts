import { queryOptions, useQuery } from '@tanstack/react-query'

/** The digital twin's equipment; requested but not shown (spec 000 §7: result not used). A failure, such as a server without this endpoint, leaves the page as it is. */
export const digitalTwinEquipmentQuery = queryOptions<unknown>({ queryKey: ['/api/digital-twin-equipment'] })

export function useDigitalTwinEquipment() {
  return useQuery(digitalTwinEquipmentQuery)
}

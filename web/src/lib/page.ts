/** Props every routed page receives: the route's parameters, lower-cased unless the route keeps their case (tokens). */
export interface PageProps {
  params: Record<string, string>
}

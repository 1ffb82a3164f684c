/** Props every routed page receives: the route's parameters, already lower-cased. */
export interface PageProps {
  params: Record<string, string>
}

#!/usr/bin/env node
// An independent OPC UA client (node-opcua) looks at a twin's demo device as
// a plant client would: it connects, browses Objects to the twin's folder,
// reads each variable with its EngineeringUnits, and optionally subscribes
// to one. It prints JSON lines on stdout:
//
//   {"event":"subscribed","nodeId":...,"value":...}   once the subscription reports the current value
//   {"event":"result", ...}                            at the end: what it found
//   {"event":"error","message":...}                    when it could not (exit status 1)
//
// Usage:
//   node support/opcua-client-check.mjs --endpoint opc.tcp://127.0.0.1:4840 --twin "Main Transformer T1"
//     [--security None|Sign|SignAndEncrypt] [--user NAME --password SECRET]
//     [--watch Temperature [--timeout 20000]]
//
// With --watch it waits, after "subscribed", until the variable reports a
// different value (or the timeout passes). Secured connections use
// Basic256Sha256 and trust the server's certificate on first sight, in a
// PKI folder of their own under the system's temporary directory.
// OPCUA_CHECK_DEBUG=1 also prints an error's stack on stderr.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import {
  AttributeIds,
  BrowseDirection,
  ClientMonitoredItem,
  ClientSubscription,
  MessageSecurityMode,
  OPCUACertificateManager,
  OPCUAClient,
  SecurityPolicy,
  TimestampsToReturn,
  UserTokenType,
} from 'node-opcua'

const { values: args } = parseArgs({
  options: {
    endpoint: { type: 'string' },
    twin: { type: 'string' },
    security: { type: 'string', default: 'None' },
    user: { type: 'string' },
    password: { type: 'string' },
    watch: { type: 'string' },
    timeout: { type: 'string', default: '20000' },
  },
})

// node-opcua logs through the console: to stderr, so stdout holds only
// this script's JSON lines.
const write = process.stdout.write.bind(process.stdout)
console.log = console.info = console.warn = console.error
function emit(event) {
  write(JSON.stringify(event) + '\n')
}

function browseAll(session, nodeId, referenceTypeId) {
  return session.browse({
    nodeId,
    browseDirection: BrowseDirection.Forward,
    referenceTypeId,
    includeSubtypes: true,
    nodeClassMask: 0,
    resultMask: 63,
  })
}

const text = (lt) => lt?.text ?? null

async function check() {
  if (!args.endpoint || !args.twin) throw new Error('--endpoint and --twin are required')
  const securityMode = MessageSecurityMode[args.security]
  if (securityMode === undefined || securityMode === MessageSecurityMode.Invalid) throw new Error(`--security ${args.security}: use None, Sign or SignAndEncrypt`)
  const pki = mkdtempSync(join(tmpdir(), 'opcua-client-check-'))
  const certificateManager = new OPCUACertificateManager({ rootFolder: pki, automaticallyAcceptUnknownCertificate: true })
  const client = OPCUAClient.create({
    applicationName: 'journeyman-opcua-client-check',
    applicationUri: 'urn:journeyman:e2e:opcua-client-check',
    securityMode,
    securityPolicy: securityMode === MessageSecurityMode.None ? SecurityPolicy.None : SecurityPolicy.Basic256Sha256,
    clientCertificateManager: certificateManager,
    connectionStrategy: { maxRetry: 0, initialDelay: 100, maxDelay: 200 },
    endpointMustExist: true,
    keepSessionAlive: false,
    requestedSessionTimeout: 60_000,
  })
  let session
  try {
    await client.connect(args.endpoint)
    session = await client.createSession(
      args.user ? { type: UserTokenType.UserName, userName: args.user, password: args.password ?? '' } : { type: UserTokenType.Anonymous },
    )
    const namespaces = (await session.read({ nodeId: 'ns=0;i=2255', attributeId: AttributeIds.Value })).value.value
    const objects = await browseAll(session, 'ns=0;i=85', 'HierarchicalReferences')
    const folderRef = objects.references.find((r) => r.browseName.name === args.twin)
    if (!folderRef) throw new Error(`Objects has no ${args.twin}: ${objects.references.map((r) => r.browseName.name).join(', ')}`)
    const folder = {
      nodeId: folderRef.nodeId.toString(),
      browseName: folderRef.browseName.toString(),
      displayName: text(folderRef.displayName),
      referenceType: folderRef.referenceTypeId.toString(),
      typeDefinition: folderRef.typeDefinition.toString(),
    }
    const components = await browseAll(session, folderRef.nodeId, 'HasComponent')
    const variables = []
    for (const ref of components.references) {
      const [value, dataType, accessLevel, userAccessLevel] = await session.read(
        [AttributeIds.Value, AttributeIds.DataType, AttributeIds.AccessLevel, AttributeIds.UserAccessLevel].map((attributeId) => ({ nodeId: ref.nodeId, attributeId })),
        0, // node-opcua asks for both timestamps
      )
      const variable = {
        name: ref.browseName.name,
        nodeId: ref.nodeId.toString(),
        typeDefinition: ref.typeDefinition.toString(),
        value: value.value.value,
        statusCode: value.statusCode.name,
        sourceTimestamp: value.sourceTimestamp?.toISOString() ?? null,
        serverTimestamp: value.serverTimestamp?.toISOString() ?? null,
        dataType: dataType.value.value?.toString() ?? null,
        accessLevel: accessLevel.value.value,
        userAccessLevel: userAccessLevel.value.value,
      }
      const properties = await browseAll(session, ref.nodeId, 'HasProperty')
      for (const prop of properties.references) {
        const v = (await session.read({ nodeId: prop.nodeId, attributeId: AttributeIds.Value })).value.value
        if (prop.browseName.name === 'EngineeringUnits') {
          variable.engineeringUnits = { namespaceUri: v.namespaceUri, unitId: v.unitId, displayName: text(v.displayName), description: text(v.description) }
        } else if (prop.browseName.name === 'EURange') {
          variable.euRange = { low: v.low, high: v.high }
        }
      }
      variables.push(variable)
    }
    const result = {
      event: 'result',
      endpoint: args.endpoint,
      securityMode: args.security,
      user: args.user ?? null,
      namespaces,
      folder,
      variables,
    }
    if (args.watch) result.subscription = await watch(session, variables.find((v) => v.name === args.watch))
    emit(result)
  } finally {
    await session?.close().catch(() => {})
    await client.disconnect().catch(() => {})
    await certificateManager.dispose().catch(() => {})
    rmSync(pki, { recursive: true, force: true })
  }
}

// watch subscribes to a variable and waits for its value to change.
async function watch(session, variable) {
  if (!variable) throw new Error(`no variable ${args.watch}`)
  const subscription = ClientSubscription.create(session, {
    requestedPublishingInterval: 100,
    requestedLifetimeCount: 600,
    requestedMaxKeepAliveCount: 10,
    maxNotificationsPerPublish: 100,
    publishingEnabled: true,
    priority: 1,
  })
  const values = []
  try {
    const item = ClientMonitoredItem.create(
      subscription,
      { nodeId: variable.nodeId, attributeId: AttributeIds.Value },
      { samplingInterval: 100, discardOldest: true, queueSize: 10 },
      TimestampsToReturn.Both,
    )
    const changed = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${variable.name} did not change within ${args.timeout} ms`)), Number(args.timeout))
      item.on('changed', (dv) => {
        values.push({ value: dv.value.value, sourceTimestamp: dv.sourceTimestamp?.toISOString() ?? null, serverTimestamp: dv.serverTimestamp?.toISOString() ?? null })
        if (values.length === 1) emit({ event: 'subscribed', nodeId: variable.nodeId, value: dv.value.value })
        else if (dv.value.value !== values[0].value) {
          clearTimeout(timer)
          resolve()
        }
      })
      item.on('err', (message) => {
        clearTimeout(timer)
        reject(new Error(`monitoring ${variable.name}: ${message}`))
      })
    })
    await changed
    return { nodeId: variable.nodeId, subscriptionId: subscription.subscriptionId, values }
  } finally {
    await subscription.terminate().catch(() => {})
  }
}

try {
  await check()
  process.exit(0)
} catch (err) {
  if (process.env.OPCUA_CHECK_DEBUG) console.error(err)
  emit({ event: 'error', message: err?.message ?? String(err) })
  process.exit(1)
}

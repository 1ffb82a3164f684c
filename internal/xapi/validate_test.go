package xapi

import (
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

const validAttachment = `{"usageType": "http://example.com/attachment-usage/test", "display": {"en-US": "A test attachment"},
	"description": {"en-US": "A test attachment (description)"}, "contentType": "text/plain; charset=ascii", "length": 27,
	"sha2": "495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a", "fileUrl": "http://over.there.com/file.txt"}`

// attachmentWith is validAttachment with one property replaced ("-" removes it).
func attachmentWith(t testing.TB, key, value string) string {
	t.Helper()
	return with(t, "attachments", "["+strings.ReplaceAll(with2(t, validAttachment, key, value), "\n", "")+"]")
}

// with2 is with for any JSON object.
func with2(t testing.TB, obj, path, value string) string {
	t.Helper()
	var m map[string]any
	if err := jsonUnmarshal(obj, &m); err != nil {
		t.Fatal(err)
	}
	set(t, m, path, value)
	return jsonMarshal(m)
}

const subStatement = `{"objectType": "SubStatement", "actor": {"mbox": "mailto:sub@example.com"},
	"verb": {"id": "http://adlnet.gov/expapi/verbs/reported"}, "object": {"id": "http://example.com/activities/sub"}}`

func TestDecodeRules(t *testing.T) {
	both := []Version{V103, V200}
	// platform is only allowed with an Activity object.
	noPlatform := with(t, "context.platform", "-")
	cases := []struct {
		name     string
		body     string
		versions []Version
		errPath  string // "" when the statement is valid
	}{
		// Statement structure (Data 2.2, 2.4)
		{"MissingActor", with(t, "actor", "-"), both, "statement"},
		{"MissingVerb", with(t, "verb", "-"), both, "statement"},
		{"MissingObject", with(t, "object", "-"), both, "statement"},
		{"UnknownProperty", with(t, "foo", `"bar"`), both, "statement"},
		{"PropertyCaseMatters", with(t, "Actor", `{"mbox": "mailto:a@b.c"}`), both, "statement"},
		{"NullProperty", with(t, "result", "null"), both, "statement.result"},
		{"NullInsideAgent", with(t, "actor.name", "null"), both, "statement.actor.name"},
		{"NullInLanguageMap", with(t, "verb.display", `{"en-US": null}`), both, "statement.verb.display.en-US"},
		{"NullRegistration", with(t, "context.registration", "null"), both, "statement.context.registration"},
		{"NullMoreInfo", with(t, "object.definition.moreInfo", "null"), both, "statement.object.definition.moreInfo"},
		{"NullExtensionValueAllowed", with(t, "result.extensions", `{"http://example.com/null": null}`), both, ""},
		{"DuplicateProperty", strings.Replace(typical, `"timestamp"`, `"timestamp": "2026-11-24T10:15:00Z", "timestamp"`, 1), both, "statement.timestamp"},
		{"NotJSON", `{"actor": `, both, "JSON"},
		{"NotAnObject", `"statement"`, both, "must hold"},
		// ids (Data 4.1.1 / uuids.js)
		{"IDTooManyDigits", with(t, "id", `"AA97B177-9383-4934-8543-0F91A7A028368"`), both, "statement.id"},
		{"IDNonHex", with(t, "id", `"MA97B177-9383-4934-8543-0F91A7A02836"`), both, "statement.id"},
		{"IDNumber", with(t, "id", `12345`), both, "statement.id"},
		{"IDObject", with(t, "id", `{"key": "x"}`), both, "statement.id"},
		{"IDUpperCaseValid", with(t, "id", `"AA97B177-9383-4934-8543-0F91A7A02836"`), both, ""},
		// actors, IFIs (agents.js, groups.js, ifis.js)
		{"AgentNoIFI", with(t, "actor", `{"objectType": "Agent", "name": "x"}`), both, "statement.actor"},
		{"AgentTwoIFIs", with(t, "actor", `{"mbox": "mailto:a@b.c", "openid": "http://openid.example.org/1"}`), both, "statement.actor"},
		{"AgentWrongObjectType", with(t, "actor", `{"objectType": "Person", "mbox": "mailto:a@b.c"}`), both, "statement.actor.objectType"},
		{"AgentObjectTypeLowerCase", with(t, "actor", `{"objectType": "agent", "mbox": "mailto:a@b.c"}`), both, "statement.actor.objectType"},
		{"AgentWithoutObjectType", with(t, "actor", `{"mbox": "mailto:a@b.c"}`), both, ""},
		{"MboxNotMailto", with(t, "actor.mbox", `"ada@example.com"`), both, "statement.actor.mbox"},
		{"MboxNoAt", with(t, "actor.mbox", `"mailto:ada"`), both, "statement.actor.mbox"},
		{"MboxSha1sum", with(t, "actor", `{"mbox_sha1sum": "cd9b00a5611f94eaa7b1661edab976068e364975"}`), both, ""},
		{"MboxSha1sumNotHex", with(t, "actor", `{"mbox_sha1sum": "not a sha1"}`), both, "statement.actor.mbox_sha1sum"},
		{"OpenIDNoScheme", with(t, "actor", `{"openid": "open.id.com/testUser"}`), both, "statement.actor.openid"},
		{"Account", with(t, "actor", `{"account": {"homePage": "http://www.example.com", "name": "xAPI account name"}}`), both, ""},
		{"AccountNoHomePage", with(t, "actor", `{"account": {"name": "x"}}`), both, "statement.actor.account"},
		{"AccountNoName", with(t, "actor", `{"account": {"homePage": "http://www.example.com"}}`), both, "statement.actor.account"},
		{"AccountHomePageNoScheme", with(t, "actor", `{"account": {"homePage": "homePage.com/testUser", "name": "1"}}`), both, "statement.actor.account.homePage"},
		{"AccountNameNotString", with(t, "actor", `{"account": {"homePage": "http://x.example", "name": {"key": "x"}}}`), both, "statement.actor.account.name"},
		{"AccountNameWithNUL", with(t, "actor", `{"account": {"homePage": "http://x.example", "name": "a\u0000b"}}`), both, "statement.actor.account.name"},
		{"AccountUnknownProperty", with(t, "actor", `{"account": {"homePage": "http://x.example", "name": "n", "id": "1"}}`), both, "statement.actor.account"},
		{"AnonymousGroup", with(t, "actor", `{"objectType": "Group", "member": [{"mbox": "mailto:a@b.c"}, {"openid": "http://openid.example.org/2"}]}`), both, ""},
		{"AnonymousGroupNoMember", with(t, "actor", `{"objectType": "Group", "name": "team"}`), both, "statement.actor"},
		{"IdentifiedGroupNoMember", with(t, "actor", `{"objectType": "Group", "mbox": "mailto:team@b.c"}`), both, ""},
		{"GroupTwoIFIs", with(t, "actor", `{"objectType": "Group", "mbox": "mailto:team@b.c", "openid": "http://openid.example.org/2"}`), both, "statement.actor"},
		{"GroupMemberIsGroup", with(t, "actor", `{"objectType": "Group", "member": [{"objectType": "Group", "mbox": "mailto:t@b.c"}]}`), both, "statement.actor.member[0]"},
		{"GroupMemberInvalid", with(t, "actor", `{"objectType": "Group", "member": [{"name": "no ifi"}]}`), both, "statement.actor.member[0]"},
		{"GroupMemberNotArray", with(t, "actor", `{"objectType": "Group", "mbox": "mailto:t@b.c", "member": {"mbox": "mailto:a@b.c"}}`), both, "statement.actor.member"},
		// verbs (verbs.js)
		{"VerbNoID", with(t, "verb", `{"display": {"en-US": "x"}}`), both, "statement.verb"},
		{"VerbIDNoScheme", with(t, "verb.id", `"adlnet.gov/expapi/verbs/completed"`), both, "statement.verb.id"},
		{"VerbNoDisplay", with(t, "verb.display", "-"), both, ""},
		{"VerbDisplayString", with(t, "verb.display", `"completed"`), both, "statement.verb.display"},
		{"VerbDisplayEmpty", with(t, "verb.display", `{}`), both, "statement.verb.display"},
		{"VerbDisplayBadTag", with(t, "verb.display", `{"a12345": "x"}`), both, "statement.verb.display"},
		{"VerbUnknownProperty", with(t, "verb.name", `{"en-US": "x"}`), both, "statement.verb"},
		{"VoidedNeedsStatementRef", with(t, "verb.id", `"`+VoidedVerb+`"`), both, "statement.object"},
		{"Voiding", with2(t, noPlatform, "object", `{"objectType": "StatementRef", "id": "e05aa883-acaf-40ad-bf54-02c8ce485fb0"}`), both, ""},
		// objects (objects.js, activities.js, statementrefs.js)
		{"ObjectTypeUnknown", with(t, "object.objectType", `"Thing"`), both, "statement.object.objectType"},
		{"ActivityNoID", with(t, "object.id", "-"), both, "statement.object"},
		{"ActivityIDBadScheme", with(t, "object.id", `"ab=c://should.fail.com"`), both, "statement.object.id"},
		{"ActivityDefinitionString", with(t, "object.definition", `"should error"`), both, "statement.object.definition"},
		{"DefinitionNameEmpty", with(t, "object.definition.name", `{}`), both, "statement.object.definition.name"},
		{"DefinitionTypeNotIRI", with(t, "object.definition.type", `"should error"`), both, "statement.object.definition.type"},
		{"DefinitionMoreInfoNotIRI", with(t, "object.definition.moreInfo", `"should error"`), both, "statement.object.definition.moreInfo"},
		{"DefinitionExtensionsString", with(t, "object.definition.extensions", `"x"`), both, "statement.object.definition.extensions"},
		{"DefinitionExtensionKeyNotIRI", with(t, "object.definition.extensions", `{"id": "valid"}`), both, "statement.object.definition.extensions"},
		{"InteractionTypeUnknown", with(t, "object.definition.interactionType", `"should error"`), both, "statement.object.definition.interactionType"},
		{"InteractionTypeNumber", with(t, "object.definition.interactionType", `12345`), both, "statement.object.definition.interactionType"},
		{"Likert", with(t, "object.definition", `{"interactionType": "likert", "correctResponsesPattern": ["likert_3"],
			"scale": [{"id": "likert_0", "description": {"en-US": "It's OK"}}, {"id": "likert_3", "description": {"en-US": "Great"}}]}`), both, ""},
		{"LikertWithChoices", with(t, "object.definition", `{"interactionType": "likert", "choices": [{"id": "a"}]}`), both, "statement.object.definition.choices"},
		{"Matching", with(t, "object.definition", `{"interactionType": "matching", "source": [{"id": "a"}], "target": [{"id": "1"}]}`), both, ""},
		{"MatchingSourceOnly", with(t, "object.definition", `{"interactionType": "matching", "correctResponsesPattern": ["a[.]1"], "source": [{"id": "a", "description": {"en-US": "A"}}]}`), both, ""},
		{"UnicodeLanguageMap", with(t, "verb.display", `{"ja-JP": "完了した", "ko-KR": "완료", "ru-RU": "завершил", "ar-EG": "أكمل", "hy-AM": "ավարտեց", "kn-IN": "ಪೂರ್ಣಗೊಳಿಸಿದರು"}`), both, ""},
		{"ExtensionValuesAnything", with(t, "result.extensions", `{"http://example.com/a": "", "http://example.com/b": {}, "http://example.com/c": [1, null]}`), both, ""},
		{"ExtensionsEmpty", with(t, "context.extensions", `{}`), both, ""},
		{"Performance", with(t, "object.definition", `{"interactionType": "performance", "steps": [{"id": "a"}]}`), both, ""},
		{"Sequencing", with(t, "object.definition", `{"interactionType": "sequencing", "choices": [{"id": "a"}, {"id": "b"}]}`), both, ""},
		{"ComponentsWithoutInteractionType", with(t, "object.definition.choices", `[{"id": "a"}]`), both, "statement.object.definition.choices"},
		{"ComponentIDsRepeat", with(t, "object.definition", `{"interactionType": "choice", "choices": [{"id": "a"}, {"id": "a"}]}`), both, "statement.object.definition.choices[1].id"},
		{"ComponentDescriptionBadTag", with(t, "object.definition", `{"interactionType": "choice", "choices": [{"id": "a", "description": {"something": "x"}}]}`), both, "statement.object.definition.choices[0].description"},
		{"CorrectResponsesNotStrings", with(t, "object.definition", `{"interactionType": "true-false", "correctResponsesPattern": [true]}`), both, "statement.object.definition.correctResponsesPattern[0]"},
		{"ObjectAgent", with2(t, noPlatform, "object", `{"objectType": "Agent", "mbox": "mailto:b@example.com"}`), both, ""},
		{"ObjectGroup", with2(t, noPlatform, "object", `{"objectType": "Group", "member": [{"mbox": "mailto:b@example.com"}]}`), both, ""},
		{"StatementRefNoID", with(t, "object", `{"objectType": "StatementRef"}`), both, "statement.object"},
		{"StatementRefBadID", with(t, "object", `{"objectType": "StatementRef", "id": "AA97B177-9383-4934-8543-0F91A7A028368"}`), both, "statement.object.id"},
		{"StatementRefExtraProperty", with(t, "object", `{"objectType": "StatementRef", "id": "e05aa883-acaf-40ad-bf54-02c8ce485fb0", "definition": {}}`), both, "statement.object"},
		// sub-statements (substatements.js)
		{"SubStatement", with2(t, noPlatform, "object", subStatement), both, ""},
		{"SubStatementWithID", with(t, "object", with2(t, subStatement, "id", `"e05aa883-acaf-40ad-bf54-02c8ce485fb0"`)), both, "statement.object"},
		{"SubStatementWithStored", with(t, "object", with2(t, subStatement, "stored", `"2026-11-24T10:15:00Z"`)), both, "statement.object"},
		{"SubStatementWithVersion", with(t, "object", with2(t, subStatement, "version", `"1.0.0"`)), both, "statement.object"},
		{"SubStatementWithAuthority", with(t, "object", with2(t, subStatement, "authority", `{"mbox": "mailto:a@b.c"}`)), both, "statement.object"},
		{"SubStatementNested", with(t, "object", with2(t, subStatement, "object", subStatement)), both, "statement.object.object"},
		{"SubStatementNoVerb", with(t, "object", with2(t, subStatement, "verb", "-")), both, "statement.object"},
		{"SubStatementBadTimestamp", with(t, "object", with2(t, subStatement, "timestamp", `"2008-09-15T15:53:00.601-00:00"`)), both, "statement.object.timestamp"},
		{"SubStatementContextRevisionWithAgentObject", with(t, "object", with2(t, with2(t, subStatement, "object", `{"objectType": "Agent", "mbox": "mailto:x@y.z"}`), "context", `{"revision": "1"}`)), both, "statement.object.context.revision"},
		// results (results.js, durations.js)
		{"ScoreScaledAboveOne", with(t, "result.score.scaled", `1.01`), both, "statement.result.score.scaled"},
		{"ScoreScaledBelowMinusOne", with(t, "result.score.scaled", `-1.5`), both, "statement.result.score.scaled"},
		{"ScoreMaxString", with(t, "result.score.max", `"100"`), both, "statement.result.score.max"},
		{"ScoreRawBelowMin", with(t, "result.score.raw", `-1`), both, "statement.result.score.raw"},
		{"ScoreRawAboveMax", with(t, "result.score.raw", `101`), both, "statement.result.score.raw"},
		{"ScoreMinAboveMax", with(t, "result.score", `{"min": 10, "max": 5}`), both, "statement.result.score.min"},
		{"ScoreUnknownProperty", with(t, "result.score.percent", `85`), both, "statement.result.score"},
		{"SuccessString", with(t, "result.success", `"true"`), both, "statement.result.success"},
		{"CompletionString", with(t, "result.completion", `"false"`), both, "statement.result.completion"},
		{"ResponseNumber", with(t, "result.response", `12`), both, "statement.result.response"},
		{"DurationInvalid", with(t, "result.duration", `"PA1H0M0S"`), both, "statement.result.duration"},
		{"DurationString", with(t, "result.duration", `"should fail"`), both, "statement.result.duration"},
		{"DurationEmptyTime", with(t, "result.duration", `"PT"`), both, "statement.result.duration"},
		{"DurationFractionNotLast", with(t, "result.duration", `"PT1.5H30M"`), both, "statement.result.duration"},
		{"DurationHours", with(t, "result.duration", `"PT1H0M0.1S"`), both, ""},
		{"DurationSeconds", with(t, "result.duration", `"PT16559.14S"`), both, ""},
		{"DurationFull", with(t, "result.duration", `"P3Y1M29DT4H35M59.14S"`), both, ""},
		{"DurationYears", with(t, "result.duration", `"P3Y"`), both, ""},
		{"DurationWeeks", with(t, "result.duration", `"P4W"`), both, ""},
		{"ResultExtensionKeyNotIRI", with(t, "result.extensions", `{"not.valid.com/extension": 1}`), both, "statement.result.extensions"},
		// context (contexts.js, contextactivities.js)
		{"RegistrationNotUUID", with(t, "context.registration", `"should fail"`), both, "statement.context.registration"},
		{"InstructorInvalid", with(t, "context.instructor", `{"key": "should fail"}`), both, "statement.context.instructor"},
		{"InstructorGroup", with(t, "context.instructor", `{"objectType": "Group", "member": [{"mbox": "mailto:i@b.c"}]}`), both, ""},
		{"TeamAgent", with(t, "context.team", `{"objectType": "Agent", "mbox": "mailto:t@b.c"}`), both, "statement.context.team"},
		{"TeamGroup", with(t, "context.team", `{"objectType": "Group", "mbox": "mailto:t@b.c"}`), both, ""},
		{"ContextActivitiesEmpty", with(t, "context.contextActivities", `{}`), both, "statement.context.contextActivities"},
		{"ContextActivitiesString", with(t, "context.contextActivities", `"x"`), both, "statement.context.contextActivities"},
		{"ContextActivitiesUnknownKey", with(t, "context.contextActivities", `{"sibling": {"id": "http://x.example/a"}}`), both, "statement.context.contextActivities"},
		{"ContextActivitiesArray", with(t, "context.contextActivities", `{"grouping": [{"id": "http://x.example/a"}], "category": [], "other": {"id": "http://x.example/b"}}`), both, ""},
		{"ContextActivityInvalid", with(t, "context.contextActivities", `{"parent": [{"id": "no scheme"}]}`), both, "statement.context.contextActivities.parent[0].id"},
		{"RevisionNumber", with(t, "context.revision", `12345`), both, "statement.context.revision"},
		{"RevisionWithAgentObject", with(t, "object", `{"objectType": "Agent", "mbox": "mailto:b@example.com"}`), both, "statement.context.platform"},
		{"RevisionWithStatementRef", with(t, "object", `{"objectType": "StatementRef", "id": "e05aa883-acaf-40ad-bf54-02c8ce485fb0"}`), both, "statement.context.platform"},
		{"LanguageInvalid", with(t, "context.language", `"a12345"`), both, "statement.context.language"},
		{"LanguageKlingon", with(t, "context.language", `"tlh"`), both, ""},
		{"ContextStatementLowerCaseType", with(t, "context.statement", `{"objectType": "statementref", "id": "e05aa883-acaf-40ad-bf54-02c8ce485fb0"}`), both, "statement.context.statement.objectType"},
		{"ContextStatementNoType", with(t, "context.statement", `{"id": "e05aa883-acaf-40ad-bf54-02c8ce485fb0"}`), both, "statement.context.statement"},
		{"ContextExtensionKeyNotIRI", with(t, "context.extensions", `{"example.com/extension/wrong": 1}`), both, "statement.context.extensions"},
		// 2.0's contextAgents and contextGroups (contextagents.js, contextgroups.js)
		{"ContextAgents", with(t, "context.contextAgents", `[{"objectType": "contextAgent", "agent": {"mbox": "mailto:p1@example.com"}, "relevantTypes": ["https://example.com/types/a"]}]`), []Version{V200}, ""},
		{"ContextAgentsIn103", with(t, "context.contextAgents", `[{"objectType": "contextAgent", "agent": {"mbox": "mailto:p1@example.com"}}]`), []Version{V103}, "statement.context"},
		{"ContextAgentWrongType", with(t, "context.contextAgents", `[{"objectType": "Should fail", "agent": {"mbox": "mailto:p1@example.com"}}]`), []Version{V200}, "statement.context.contextAgents[0].objectType"},
		{"ContextAgentInvalidAgent", with(t, "context.contextAgents", `[{"objectType": "contextAgent", "agent": {"key": "Should fail"}}]`), []Version{V200}, "statement.context.contextAgents[0].agent"},
		{"ContextAgentRelevantTypesEmpty", with(t, "context.contextAgents", `[{"objectType": "contextAgent", "agent": {"mbox": "mailto:p1@example.com"}, "relevantTypes": []}]`), []Version{V200}, "statement.context.contextAgents[0].relevantTypes"},
		{"ContextAgentRelevantTypeNotIRI", with(t, "context.contextAgents", `[{"objectType": "contextAgent", "agent": {"mbox": "mailto:p1@example.com"}, "relevantTypes": ["abc"]}]`), []Version{V200}, "statement.context.contextAgents[0].relevantTypes[0]"},
		{"ContextGroups", with(t, "context.contextGroups", `[{"objectType": "contextGroup", "group": {"objectType": "Group", "mbox": "mailto:team-1@example.com", "member": [{"mbox": "mailto:p1@example.com"}]}, "relevantTypes": ["https://example.com/types/team"]}]`), []Version{V200}, ""},
		{"ContextGroupWrongType", with(t, "context.contextGroups", `[{"objectType": "Should fail", "group": {"objectType": "Group", "mbox": "mailto:team-1@example.com"}}]`), []Version{V200}, "statement.context.contextGroups[0].objectType"},
		{"ContextGroupInvalidGroup", with(t, "context.contextGroups", `[{"objectType": "contextGroup", "group": {"key": "Should fail"}}]`), []Version{V200}, "statement.context.contextGroups[0].group"},
		{"ContextGroupRelevantTypesEmpty", with(t, "context.contextGroups", `[{"objectType": "contextGroup", "group": {"objectType": "Group", "mbox": "mailto:p@example.com"}, "relevantTypes": []}]`), []Version{V200}, "statement.context.contextGroups[0].relevantTypes"},
		// timestamps (timestamps.js)
		{"TimestampString", with(t, "timestamp", `"should fail"`), both, "statement.timestamp"},
		{"TimestampBadDate", with(t, "timestamp", `"01/011/2015"`), both, "statement.timestamp"},
		{"TimestampMinus00", with(t, "timestamp", `"2008-09-15T15:53:00.601-00"`), both, "statement.timestamp"},
		{"TimestampMinus0000", with(t, "timestamp", `"2008-09-15T15:53:00.601-0000"`), both, "statement.timestamp"},
		{"TimestampMinus00Colon00", with(t, "timestamp", `"2008-09-15T15:53:00.601-00:00"`), both, "statement.timestamp"},
		{"TimestampNoZone", with(t, "timestamp", `"2008-09-15T15:53:00.601"`), both, "statement.timestamp"},
		{"TimestampSpaceSeparator", with(t, "timestamp", `"2008-09-15 15:53:00.601+00:00"`), both, ""},
		{"TimestampPlus0000", with(t, "timestamp", `"2008-09-15T15:53:00+0000"`), both, ""},
		{"TimestampBasicFormat", with(t, "timestamp", `"20080915T155300.601+0100"`), both, ""},
		{"TimestampBasicFormatNoZone", with(t, "timestamp", `"20080915T155300"`), both, "statement.timestamp"},
		{"TimestampMonth13", with(t, "timestamp", `"2008-13-15T15:53:00Z"`), both, "statement.timestamp"},
		{"TimestampZ", with(t, "timestamp", `"2008-09-15T15:53:00Z"`), both, ""},
		{"StoredInvalid", with(t, "stored", `"yesterday"`), both, "statement.stored"},
		// version (version.js)
		{"Version103", with(t, "version", `"1.0.3"`), []Version{V103}, ""},
		{"Version10", with(t, "version", `"1.0"`), []Version{V103}, ""},
		{"Version103In200", with(t, "version", `"1.0.3"`), []Version{V200}, "statement.version"},
		{"Version200", with(t, "version", `"2.0.0"`), []Version{V200}, ""},
		{"Version200In103", with(t, "version", `"2.0.0"`), []Version{V103}, "statement.version"},
		{"VersionBogus", with(t, "version", `"1.1.0"`), both, "statement.version"},
		{"VersionNumber", with(t, "version", `1`), both, "statement.version"},
		// authority (authorities.js)
		{"AuthorityAgent", with(t, "authority", `{"mbox": "mailto:auth@example.com"}`), both, ""},
		{"AuthorityOAuthGroup", with(t, "authority", `{"objectType": "Group", "member": [{"account": {"homePage": "http://example.com/xAPI/OAuth/Token", "name": "oauth_consumer_x75db"}}, {"mbox": "mailto:bob@example.com"}]}`), both, ""},
		{"AuthorityGroupOneMember", with(t, "authority", `{"objectType": "Group", "member": [{"mbox": "mailto:bob@example.com"}]}`), both, "statement.authority"},
		{"AuthorityGroupThreeMembers", with(t, "authority", `{"objectType": "Group", "member": [{"mbox": "mailto:a@example.com"}, {"mbox": "mailto:b@example.com"}, {"mbox": "mailto:c@example.com"}]}`), both, "statement.authority"},
		{"AuthorityIdentifiedGroup", with(t, "authority", `{"objectType": "Group", "mbox": "mailto:g@example.com", "member": [{"mbox": "mailto:a@example.com"}, {"mbox": "mailto:b@example.com"}]}`), both, "statement.authority.mbox"},
		// attachments (attachments.js, languages.js)
		{"Attachment", with(t, "attachments", "["+validAttachment+"]"), both, ""},
		{"AttachmentsNotArray", with(t, "attachments", validAttachment), both, "statement.attachments"},
		{"AttachmentNumber", with(t, "attachments", `[12345]`), both, "statement.attachments[0]"},
		{"AttachmentUsageTypeNotIRI", attachmentWith(t, "usageType", `"should fail"`), both, "statement.attachments[0].usageType"},
		{"AttachmentNoUsageType", attachmentWith(t, "usageType", "-"), both, "statement.attachments[0]"},
		{"AttachmentContentTypeInvalid", attachmentWith(t, "contentType", `"should fail"`), both, "statement.attachments[0].contentType"},
		{"AttachmentLengthString", attachmentWith(t, "length", `"27"`), both, "statement.attachments[0].length"},
		{"AttachmentLengthFraction", attachmentWith(t, "length", `2.5`), both, "statement.attachments[0].length"},
		{"AttachmentSHA2Number", attachmentWith(t, "sha2", `12345`), both, "statement.attachments[0].sha2"},
		{"AttachmentFileURLNotIRL", attachmentWith(t, "fileUrl", `"should fail"`), both, "statement.attachments[0].fileUrl"},
		{"AttachmentDisplayEmpty", attachmentWith(t, "display", `{}`), both, "statement.attachments[0].display"},
		{"AttachmentNoDisplay", attachmentWith(t, "display", "-"), both, "statement.attachments[0]"},
		{"AttachmentDescriptionBadTag", attachmentWith(t, "description", `{"en-US": "x", "something": "y"}`), both, "statement.attachments[0].description"},
		{"AttachmentDescriptionString", attachmentWith(t, "description", `"should error"`), both, "statement.attachments[0].description"},
	}
	for _, c := range cases {
		for _, v := range c.versions {
			t.Run(c.name+"/"+string(v), func(t *testing.T) {
				_, err := Decode([]byte(c.body), v)
				if c.errPath == "" {
					if err != nil {
						t.Fatalf("rejected a valid statement: %v", err)
					}
					return
				}
				if err == nil {
					t.Fatalf("accepted; want an error at %s", c.errPath)
				}
				if apperr.Code(err) != apperr.EINVALID {
					t.Fatalf("code %s, want %s: %v", apperr.Code(err), apperr.EINVALID, err)
				}
				if !strings.Contains(apperr.Message(err), c.errPath) {
					t.Fatalf("message %q does not name %s", apperr.Message(err), c.errPath)
				}
			})
		}
	}
}

func TestDecodeBatch(t *testing.T) {
	a := with(t, "id", `"e05aa883-acaf-40ad-bf54-02c8ce485fb0"`)
	b := with(t, "id", `"E05AA883-ACAF-40AD-BF54-02C8CE485FB0"`)
	noID := with(t, "id", "-")
	t.Run("OK", func(t *testing.T) {
		ins, err := Decode([]byte("["+a+","+noID+"]"), V103)
		if err != nil {
			t.Fatal(err)
		}
		if len(ins) != 2 || ins[0].ID() != "e05aa883-acaf-40ad-bf54-02c8ce485fb0" || ins[1].ID() != "" {
			t.Fatalf("got %d statements, ids %q", len(ins), []string{ins[0].ID(), ins[1].ID()})
		}
	})
	t.Run("ErrSameIDTwice", func(t *testing.T) {
		_, err := Decode([]byte("["+a+","+b+"]"), V103)
		if err == nil || !strings.Contains(apperr.Message(err), "statements[1].id") {
			t.Fatalf("got %v, want a duplicate-id error at statements[1].id", err)
		}
	})
	t.Run("ErrPathNamesIndex", func(t *testing.T) {
		bad := with(t, "context.registration", `"abc"`)
		_, err := Decode([]byte("["+a+","+bad+"]"), V200)
		want := `statements[1].context.registration: "abc" is not a UUID`
		if err == nil || apperr.Message(err) != want {
			t.Fatalf("got %v, want %q", err, want)
		}
	})
	t.Run("ErrNotAnObject", func(t *testing.T) {
		_, err := Decode([]byte("["+a+", 5]"), V200)
		if err == nil || !strings.Contains(apperr.Message(err), "statements[1]") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		header string
		want   Version
		ok     bool
	}{
		{"1.0", V103, true}, {"1.0.0", V103, true}, {"1.0.3", V103, true}, {"1.0.9", V103, true},
		{"2.0", V200, true}, {"2.0.0", V200, true}, {"2.0.1", V200, true},
		{"", "", false}, {"0.95", "", false}, {"1.1", "", false}, {"1.0.", "", false}, {"2.1.0", "", false}, {"3.0.0", "", false}, {"1.0.x", "", false},
	} {
		got, err := ParseVersion(c.header)
		if c.ok && (err != nil || got != c.want) {
			t.Errorf("ParseVersion(%q) = %q, %v; want %q", c.header, got, err, c.want)
		}
		if !c.ok && (err == nil || apperr.Code(err) != apperr.EINVALID) {
			t.Errorf("ParseVersion(%q) = %q, %v; want EINVALID", c.header, got, err)
		}
	}
}

func TestLanguageTags(t *testing.T) {
	valid := []string{"en", "en-US", "de-CH-1901", "zh-Hant-TW", "tlh", "es-419", "sr-Latn-RS", "x-private", "en-a-bbb-x-a-ccc", "i-klingon", "und", "zh-yue-HK"}
	invalid := []string{"", "a12345", "something", "en_US", "en-", "-en", "e", "en-US-US-US-x", "de-DE-1901-1901", "en-a-bbb-a-ccc", "12"}
	for _, s := range valid {
		if !isLanguageTag(s) {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range invalid {
		if isLanguageTag(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestExportedChecks(t *testing.T) {
	if !IsUUID("FD41C918-b88b-4b20-a0a5-a4c32391aaa0") || IsUUID("wrong") || IsUUID("fd41c918b88b4b20a0a5a4c32391aaa0") {
		t.Error("IsUUID")
	}
	if !IsIRI("http://adlnet.gov/expapi/verbs/completed") || IsIRI("not.a.valid.iri.com/verb") || IsIRI("http://x y") {
		t.Error("IsIRI")
	}
	if got, err := ParseTimestamp("2026-11-24T10:15:00.123+01:00"); err != nil || !got.Equal(time.Date(2026, 11, 24, 9, 15, 0, 123e6, time.UTC)) {
		t.Errorf("ParseTimestamp = %v, %v", got, err)
	}
	if _, err := ParseTimestamp("yesterday"); apperr.Code(err) != apperr.EINVALID {
		t.Errorf("ParseTimestamp(yesterday): %v, want EINVALID", err)
	}
	for range 100 {
		if u := NewUUID(); !IsUUID(u) || u != strings.ToLower(u) || u[14] != '4' || !strings.ContainsRune("89ab", rune(u[19])) {
			t.Fatalf("NewUUID() = %q is not a lower-case version-4 UUID", u)
		}
	}
}

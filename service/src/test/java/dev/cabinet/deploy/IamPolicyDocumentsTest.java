package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.iam.IamRole;
import dev.cabinet.support.GeneratedFiles;

/**
 * deploy/iam/ holds exactly the policy documents {@link IamRole} renders, and deploy/k8s/README.md shows the same
 * grants; a run that finds either stale rewrites it. Whether the grants match the calls the code makes is
 * {@code IamPoliciesIT}'s question.
 */
class IamPolicyDocumentsTest {

    static final Path IAM = Path.of("..", "deploy", "iam");
    private static final Path README = Path.of("..", "deploy", "k8s", "README.md");
    private static final String START = "<!-- iam-policies:start (generated from dev.cabinet.iam.IamRole) -->\n";
    private static final String END = "<!-- iam-policies:end -->";

    @ParameterizedTest
    @EnumSource(IamRole.class)
    void eachRolesPolicyDocumentIsWhatTheDeclarationRenders(IamRole role) throws Exception {
        Path file = IAM.resolve(IamPolicies.fileName(role));
        String rendered = IamPolicies.document(role);
        GeneratedFiles.check(file, rendered);
        JsonNode policy = new ObjectMapper().readTree(rendered);
        assertEquals("2012-10-17", policy.at("/Version").asText());
        for (JsonNode statement : policy.at("/Statement")) {
            assertEquals("Allow", statement.at("/Effect").asText());
            statement.at("/Action").forEach(a -> assertTrue(a.asText().matches("(dynamodb|s3|kms):[A-Z][A-Za-z]+"),
                    a.asText()));
            statement.at("/Resource").forEach(r -> assertTrue(!r.asText().endsWith(":*") && !r.asText().equals("*"),
                    "no wildcard resource: " + r.asText()));
        }
    }

    @Test
    void deployIamHoldsNoOtherPolicy() throws IOException {
        Set<String> expected = Arrays.stream(IamRole.values()).map(IamPolicies::fileName).collect(Collectors.toSet());
        try (var files = Files.list(IAM)) {
            assertEquals(expected, files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".json"))
                    .collect(Collectors.toSet()));
        }
    }

    @Test
    void theDeploymentReadmeShowsTheGeneratedGrants() throws IOException {
        GeneratedFiles.checkSection(README, START, END, IamPolicies.readmeTable());
    }

    /**
     * The policies' resources as IAM matches them (a {@code *} in an ARN matches any characters, slashes too): every
     * role reaches the home table and a rebuild's, and no other table whose name merely starts with the home table's.
     */
    @ParameterizedTest
    @EnumSource(IamRole.class)
    void theTablesGrantedAreTheHomeTableAndTheRebuildsTablesOnly(IamRole role) throws Exception {
        JsonNode tables = statement(role, "Tables");
        for (String granted : List.of("cabinet", "cabinet-rebuild-v2", "cabinet-rebuild-2026-12")) {
            assertTrue(allows(tables, "table/" + granted), role + " on " + granted);
        }
        for (String other : List.of("cabinet-billing", "cabinetry", "cabinet-v2", "billing", "cabinet-rebuild")) {
            assertFalse(allows(tables, "table/" + other), role + " must not reach " + other);
        }
    }

    /** Listing the bucket, which S3 needs to answer a missing object 404, is limited to the uploads' prefix. */
    @Test
    void theApiMayListTheBucketUnderTheUploadPrefixOnly() throws Exception {
        JsonNode listing = statement(IamRole.API, "ListObjects");
        List<String> actions = new ArrayList<>();
        listing.at("/Action").forEach(action -> actions.add(action.asText()));
        assertEquals(List.of("s3:ListBucket"), actions);
        assertEquals("arn:aws:s3:::cabinet-files", substituted(listing.at("/Resource/0").asText()));
        String prefix = listing.at("/Condition/StringLike/s3:prefix/0").asText();
        assertTrue(glob(prefix).matcher("folders/F01/files/F02").matches());
        assertFalse(glob(prefix).matcher("backups/2026").matches());
        assertFalse(glob(prefix).matcher("").matches(), "listing the whole bucket");
        assertTrue(statementOrNull(IamRole.PROJECTOR, "ListObjects") == null, "the projector never HEADs an upload");
    }

    private static JsonNode statement(IamRole role, String sid) throws Exception {
        JsonNode statement = statementOrNull(role, sid);
        assertTrue(statement != null, IamPolicies.fileName(role) + " has no statement " + sid);
        return statement;
    }

    private static JsonNode statementOrNull(IamRole role, String sid) throws Exception {
        for (JsonNode statement : new ObjectMapper().readTree(IamPolicies.document(role)).at("/Statement")) {
            if (statement.at("/Sid").asText().equals(sid)) {
                return statement;
            }
        }
        return null;
    }

    private static boolean allows(JsonNode statement, String resource) {
        String arn = "arn:aws:dynamodb:eu-west-1:123456789012:" + resource;
        for (JsonNode pattern : statement.at("/Resource")) {
            if (glob(substituted(pattern.asText())).matcher(arn).matches()) {
                return true;
            }
        }
        return false;
    }

    /** The placeholders as deploy/k8s/README.md's example fills them in. */
    private static String substituted(String text) {
        return text.replace("${AWS_REGION}", "eu-west-1").replace("${AWS_ACCOUNT_ID}", "123456789012")
                .replace("${CABINET_TABLE_NAME}", "cabinet").replace("${CABINET_FILES_BUCKET}", "cabinet-files");
    }

    /** IAM's wildcards: {@code *} any characters, {@code ?} one; everything else literally. */
    private static Pattern glob(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(regex.toString());
    }
}

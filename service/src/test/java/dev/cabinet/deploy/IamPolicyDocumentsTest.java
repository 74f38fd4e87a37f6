package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.iam.IamRole;

/**
 * deploy/iam/ holds exactly the policy documents {@link IamRole} renders, and deploy/k8s/README.md shows the same
 * grants; -Dcabinet.docs.write=true rewrites both. Whether the grants match the calls the code makes is
 * {@code IamPoliciesIT}'s question.
 */
class IamPolicyDocumentsTest {

    static final Path IAM = Path.of("..", "deploy", "iam");
    private static final Path README = Path.of("..", "deploy", "k8s", "README.md");
    private static final String START = "<!-- iam-policies:start (generated from dev.cabinet.iam.IamRole) -->\n";
    private static final String END = "<!-- iam-policies:end -->";
    private static final String REGENERATE = "./mvnw test -Dtest=IamPolicyDocumentsTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dcabinet.docs.write=true";

    @ParameterizedTest
    @EnumSource(IamRole.class)
    void eachRolesPolicyDocumentIsWhatTheDeclarationRenders(IamRole role) throws Exception {
        Path file = IAM.resolve(IamPolicies.fileName(role));
        String rendered = IamPolicies.document(role);
        if (Boolean.getBoolean("cabinet.docs.write")) {
            Files.createDirectories(IAM);
            Files.writeString(file, rendered, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(file), file + " is missing: generate it with " + REGENERATE);
        assertEquals(rendered, Files.readString(file, StandardCharsets.UTF_8), file + " is stale: " + REGENERATE);
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
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int start = readme.indexOf(START);
        int end = readme.indexOf(END);
        assertTrue(start >= 0 && end > start, "deploy/k8s/README.md lacks the generated IAM policy table markers");
        String table = IamPolicies.readmeTable();
        if (Boolean.getBoolean("cabinet.docs.write")) {
            readme = readme.substring(0, start + START.length()) + table + readme.substring(end);
            Files.writeString(README, readme, StandardCharsets.UTF_8);
        }
        assertEquals(table, readme.substring(start + START.length(), readme.indexOf(END)),
                "deploy/k8s/README.md's IAM policy table is stale: regenerate it with " + REGENERATE);
    }
}

package dev.cabinet.projection.contract;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.EventType;
import dev.cabinet.support.GeneratedFiles;

/**
 * The parts of the AsyncAPI document that follow from the event types and their schemas, rendered so that no one edits
 * them by hand: each event channel's list of messages and one message per event type (its summary the schema's
 * description, its payload the schema, its Kafka key the schema's {@code x-cabinet-key} property). The rest of the
 * document (the channels' descriptions, the operations, the CloudEvents headers) is written by hand around them.
 */
final class AsyncApiMessages {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final Path DOCUMENT = Path.of("src/main/resources/META-INF/resources/contract/asyncapi.yaml");
    static final String END = "      # end of the generated messages\n";
    static final String COMPONENTS_START = "    # generated: one message per event type (EventContractTest), do not edit\n";
    static final String COMPONENTS_END = "    # end of the generated messages\n";

    private AsyncApiMessages() {
    }

    /** The line after which a channel's generated list of messages begins. */
    static String channelStart(String topic) {
        return "      # generated: the event types on " + topic + " (EventContractTest), do not edit\n";
    }

    /**
     * The document with every generated section rendered again from the event types and their schemas, the rest as
     * {@code committed} has it; a section whose marker lines are missing is an error that names them.
     */
    static String render(String committed, Map<String, EventType<?>> catalog, Map<String, JsonNode> schemas) {
        String document = committed;
        for (Map.Entry<String, String> channel : channelMessages(catalog).entrySet()) {
            document = GeneratedFiles.withSection(DOCUMENT, document, channelStart(channel.getKey()), END,
                    channel.getValue());
        }
        return GeneratedFiles.withSection(DOCUMENT, document, COMPONENTS_START, COMPONENTS_END,
                components(catalog, schemas));
    }

    /** Each event topic's list of messages, by topic. */
    static Map<String, String> channelMessages(Map<String, EventType<?>> catalog) {
        Map<String, String> byTopic = new LinkedHashMap<>();
        catalog.forEach((name, type) -> byTopic.merge(type.topic(), "      " + name + ":\n"
                + "        $ref: '#/components/messages/" + name + "'\n", String::concat));
        return byTopic;
    }

    /** One message per event type, in the catalog's order, each from its schema. */
    static String components(Map<String, EventType<?>> catalog, Map<String, JsonNode> schemas) {
        StringBuilder yaml = new StringBuilder();
        catalog.keySet().forEach(name -> {
            JsonNode schema = schemas.get(name);
            String key = schema.path("x-cabinet-key").asText();
            JsonNode keyField = schema.path("properties").path(key);
            if (!keyField.path("pattern").isTextual()) {
                throw new IllegalStateException(name + ": its key field " + key + " has no pattern in its schema");
            }
            yaml.append("    ").append(name).append(":\n")
                    .append("      name: ").append(name).append('\n')
                    .append("      summary: ").append(doubleQuoted(schema.path("description").asText())).append('\n')
                    .append("      headers:\n")
                    .append("        $ref: '#/components/schemas/CloudEventHeaders'\n")
                    .append("      payload:\n")
                    .append("        $ref: './events/").append(name).append(".json'\n")
                    .append("      bindings:\n")
                    .append("        kafka:\n")
                    .append("          key:\n")
                    .append("            type: ").append(keyField.path("type").asText()).append('\n')
                    .append("            pattern: ").append(singleQuoted(keyField.path("pattern").asText())).append('\n')
                    .append("            description: the event's ").append(key).append('\n');
        });
        return yaml.toString();
    }

    /** A JSON string literal, which YAML reads as a double-quoted scalar: control characters escaped too. */
    private static String doubleQuoted(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String singleQuoted(String text) {
        return '\'' + text.replace("'", "''") + '\'';
    }
}

package dev.cabinet.projection.execution;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An attribute value kept as one binary attribute: its DynamoDB JSON form (types as keys, map keys sorted, so equal
 * values pack to equal bytes), deflated. For bookkeeping an item carries but seldom reads (a root's recorded steps):
 * DynamoDB bills the bytes an item holds, and the compressed form is a third of the lists and maps it replaces.
 */
final class CompactValues {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CompactValues() {
    }

    static AttributeValue pack(AttributeValue value) {
        try {
            byte[] json = JSON.writeValueAsBytes(toJson(value));
            Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
            deflater.setInput(json);
            deflater.finish();
            ByteArrayOutputStream packed = new ByteArrayOutputStream(json.length / 2 + 16);
            byte[] buffer = new byte[1024];
            while (!deflater.finished()) {
                packed.write(buffer, 0, deflater.deflate(buffer));
            }
            deflater.end();
            return AttributeValue.fromB(SdkBytes.fromByteArray(packed.toByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static AttributeValue unpack(AttributeValue packed) {
        Inflater inflater = new Inflater(true);
        inflater.setInput(packed.b().asByteArray());
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            while (!inflater.finished()) {
                int read = inflater.inflate(buffer);
                if (read == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalArgumentException("a packed value ends early");
                }
                json.write(buffer, 0, read);
            }
            return fromJson(JSON.readTree(json.toByteArray()));
        } catch (DataFormatException e) {
            throw new IllegalArgumentException("not a packed value: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            inflater.end();
        }
    }

    /** The value in DynamoDB's JSON form: its type as the key, a map's keys sorted, bytes in base64. */
    static JsonNode toJson(AttributeValue value) {
        ObjectNode node = NODES.objectNode();
        if (value.s() != null) {
            node.put("S", value.s());
        } else if (value.n() != null) {
            node.put("N", value.n());
        } else if (value.b() != null) {
            node.put("B", value.b().asByteArray());
        } else if (value.bool() != null) {
            node.put("BOOL", value.bool());
        } else if (Boolean.TRUE.equals(value.nul())) {
            node.put("NULL", true);
        } else if (value.hasSs()) {
            ArrayNode strings = node.putArray("SS");
            value.ss().forEach(strings::add);
        } else if (value.hasNs()) {
            ArrayNode numbers = node.putArray("NS");
            value.ns().forEach(numbers::add);
        } else if (value.hasL()) {
            ArrayNode list = node.putArray("L");
            value.l().forEach(element -> list.add(toJson(element)));
        } else if (value.hasM()) {
            ObjectNode map = node.putObject("M");
            new TreeMap<>(value.m()).forEach((name, element) -> map.set(name, toJson(element)));
        } else {
            throw new IllegalArgumentException("an attribute value of no known type: " + value);
        }
        return node;
    }

    private static AttributeValue fromJson(JsonNode node) throws IOException {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        Map.Entry<String, JsonNode> only = fields.next();
        JsonNode value = only.getValue();
        switch (only.getKey()) {
            case "S":
                return AttributeValue.fromS(value.asText());
            case "N":
                return AttributeValue.fromN(value.asText());
            case "B":
                return AttributeValue.fromB(SdkBytes.fromByteArray(value.binaryValue()));
            case "BOOL":
                return AttributeValue.fromBool(value.asBoolean());
            case "NULL":
                return AttributeValue.fromNul(true);
            case "SS":
                return AttributeValue.fromSs(texts(value));
            case "NS":
                return AttributeValue.fromNs(texts(value));
            case "L": {
                List<AttributeValue> list = new ArrayList<>();
                for (JsonNode element : value) {
                    list.add(fromJson(element));
                }
                return AttributeValue.fromL(list);
            }
            case "M": {
                Map<String, AttributeValue> map = new TreeMap<>();
                Iterator<Map.Entry<String, JsonNode>> entries = value.fields();
                while (entries.hasNext()) {
                    Map.Entry<String, JsonNode> entry = entries.next();
                    map.put(entry.getKey(), fromJson(entry.getValue()));
                }
                return AttributeValue.fromM(map);
            }
            default:
                throw new IllegalArgumentException("no attribute type " + only.getKey());
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(element -> texts.add(element.asText()));
        return texts;
    }
}

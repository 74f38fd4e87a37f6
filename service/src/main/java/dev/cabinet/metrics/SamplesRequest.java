package dev.cabinet.metrics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/** The body of {@code POST /metrics/{resourceId}}: one sample object, or an array of up to 500. */
@JsonDeserialize(using = SamplesRequest.Reader.class)
@Schema(description = "One sample, or an array of 1 to " + MetricsEvent.MAX_SAMPLES + " samples",
        oneOf = { SampleRequest.class, SampleRequest[].class })
public record SamplesRequest(
        @NotNull @Size(min = 1, max = MetricsEvent.MAX_SAMPLES) List<@Valid @NotNull SampleRequest> samples) {

    /** Reads either shape; Jackson's own checks (unknown fields, wrong types) apply to each sample. */
    static final class Reader extends JsonDeserializer<SamplesRequest> {
        @Override
        public SamplesRequest deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            List<SampleRequest> samples = new ArrayList<>();
            if (parser.currentToken() == JsonToken.START_ARRAY) {
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    samples.add(context.readValue(parser, SampleRequest.class));
                }
            } else {
                samples.add(context.readValue(parser, SampleRequest.class));
            }
            return new SamplesRequest(samples);
        }
    }
}

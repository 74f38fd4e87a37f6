package dev.cabinet.projection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;

import dev.cabinet.support.ProductionClasses;

/**
 * The engine's contract stays learnable (issue 42): docs/design.md's "The contract in N concepts" names every public
 * type of {@code dev.cabinet.projection} and every step kind of a plan exactly once, in at most twelve concepts. A new
 * type or step kind must find its concept there (or make a new one, which the title then counts).
 */
class EngineContractTest {

    private static final Path DESIGN = Path.of("..", "docs", "design.md");
    private static final Pattern TITLE = Pattern.compile("^### The contract in (\\w+) concepts$");
    private static final Pattern CONCEPT = Pattern.compile("^(\\d+)\\. \\*\\*[^*]+\\*\\* \\(([^)]+)\\):");
    private static final Pattern NAME = Pattern.compile("`([A-Za-z.]+)`");
    private static final List<String> NUMBERS = List.of("one", "two", "three", "four", "five", "six", "seven", "eight",
            "nine", "ten", "eleven", "twelve");

    @Test
    void everyTypeAndStepKindHasOneConceptAndTheConceptsAreAtMostTwelve() throws IOException {
        List<String> lines = Files.readAllLines(DESIGN);
        int title = -1;
        String counted = null;
        for (int i = 0; i < lines.size() && title < 0; i++) {
            Matcher matcher = TITLE.matcher(lines.get(i));
            if (matcher.matches()) {
                title = i;
                counted = matcher.group(1);
            }
        }
        assertTrue(title >= 0, "docs/design.md has no section \"### The contract in N concepts\"");
        List<List<String>> concepts = new ArrayList<>();
        for (int i = title + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            Matcher concept = CONCEPT.matcher(lines.get(i));
            if (concept.find()) {
                assertEquals(concepts.size() + 1, Integer.parseInt(concept.group(1)), "concepts are numbered in order");
                Matcher name = NAME.matcher(concept.group(2));
                List<String> names = new ArrayList<>();
                while (name.find()) {
                    names.add(name.group(1));
                }
                concepts.add(names);
            }
        }
        assertTrue(concepts.size() <= NUMBERS.size(), concepts.size() + " concepts, over " + NUMBERS.size());
        assertEquals(NUMBERS.get(concepts.size() - 1), counted, "the title counts the concepts listed below it");

        List<String> named = concepts.stream().flatMap(List::stream).toList();
        Set<String> twice = named.stream().filter(n -> named.indexOf(n) != named.lastIndexOf(n))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of(), twice, "named by more than one concept");
        assertEquals(contract(), new TreeSet<>(named), "the concepts name exactly the contract's types and step kinds");
    }

    /** The public top-level types of the contract package (not its sub-packages) and the step kinds of a plan. */
    private static Set<String> contract() {
        Set<String> types = ProductionClasses.all().stream()
                .filter(type -> type.getPackageName().equals(Projector.class.getPackageName()))
                .filter(JavaClass::isTopLevelClass)
                .filter(type -> type.getModifiers().contains(JavaModifier.PUBLIC))
                .map(JavaClass::getSimpleName)
                .collect(Collectors.toCollection(TreeSet::new));
        Arrays.stream(WritePlan.Step.class.getPermittedSubclasses()).map(Class::getSimpleName).forEach(types::add);
        return types;
    }
}

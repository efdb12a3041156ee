/*
 * The check a packet passes before Exempi parses it. Exempi's parser (the XMP Toolkit over expat) refuses DOCTYPEs
 * itself, but prints on stderr when it does; it builds its tree recursively, so that a packet nesting elements some
 * thousands deep overflows the stack of the thread parsing it; and before it adds a member to a node it looks for
 * the member's name among those already there, so that a node with n members costs it n * n steps (100 000
 * attributes on one element: minutes). expat, run here with handlers that keep nothing but counters, bounds all of
 * these before Exempi runs, and names the line and column of malformed XML.
 */
#include "exempi_functions.h"
#include "sepia_xmp.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEPIA_EXPAT_EXTERN_F(type, name, params, args) extern type(*sepia_##name) params;
#define SEPIA_EXPAT_EXTERN_V(name, params, args) extern void(*sepia_##name) params;
SEPIA_EXPAT_FUNCTIONS(SEPIA_EXPAT_EXTERN_F, SEPIA_EXPAT_EXTERN_V)

/* expat names an element or attribute in a namespace "URI\x01local". \x01 is not a character XML allows, so no
 * namespace contains it. */
#define SEPARATOR '\x01'
#define RDF_NAMESPACE "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

/* What an open element is to the XMP tree. */
typedef enum { ELEMENT_OTHER, ELEMENT_RDF, ELEMENT_TOP_DESCRIPTION, ELEMENT_NESTED_DESCRIPTION, ELEMENT_ITEM } element_kind;

typedef struct {
    element_kind kind;
    /* Where the members of this element are counted: its own counter, the one shared by the top-level
     * descriptions, or (a nested description) its property element's. */
    long *members;
    long own;
} open_element;

typedef struct {
    XML_Parser parser;
    const sepia_xmp_limits *limits;
    int depth;
    int namespaces;
    long nodes;
    long long cost;
    long top_members;
    /* The open elements, depth 1 at index 0; max_depth + 1 of them, the last one only to be refused. */
    open_element *open;
    sepia_xmp_check_result result;
    char *message;
    size_t message_size;
} check_state;

static void stop(check_state *state, sepia_xmp_check_result result, const char *what) {
    if (state->result != SEPIA_XMP_CHECK_OK) {
        return;
    }
    state->result = result;
    snprintf(state->message, state->message_size, "%s at line %lu, column %lu", what,
        (unsigned long)sepia_XML_GetCurrentLineNumber(state->parser),
        (unsigned long)sepia_XML_GetCurrentColumnNumber(state->parser) + 1);
    sepia_XML_StopParser(state->parser, XML_FALSE);
}

static int is_rdf(const XML_Char *name, const char *local) {
    size_t length = strlen(RDF_NAMESPACE);
    return strncmp(name, RDF_NAMESPACE, length) == 0 && name[length] == SEPARATOR && strcmp(name + length + 1, local) == 0;
}

/* Counts one node (an element or an attribute), and one member more in `counter` when there is one. Returns 0
 * once a limit is passed. */
static int count(check_state *state, long *counter) {
    const sepia_xmp_limits *limits = state->limits;
    char what[160];
    state->nodes += 1;
    if (state->nodes > limits->max_nodes) {
        snprintf(what, sizeof(what), "more than %ld elements and attributes", limits->max_nodes);
        stop(state, SEPIA_XMP_CHECK_TOO_MANY_NODES, what);
        return 0;
    }
    if (counter == NULL) {
        return 1;
    }
    /* From n to n + 1 members, the sum of the squares grows by 2n + 1. */
    state->cost += 2 * (long long)*counter + 1;
    *counter += 1;
    if (*counter > limits->max_members) {
        snprintf(what, sizeof(what), "an element with more than %ld properties, attributes and child elements", limits->max_members);
        stop(state, SEPIA_XMP_CHECK_TOO_MANY_MEMBERS, what);
        return 0;
    }
    if (state->cost > limits->max_cost) {
        snprintf(what, sizeof(what),
            "elements with so many properties that parsing them would take more than %lld steps (the squares of their property counts, added up)",
            limits->max_cost);
        stop(state, SEPIA_XMP_CHECK_TOO_COSTLY, what);
        return 0;
    }
    return 1;
}

static void XMLCALL start_element(void *data, const XML_Char *name, const XML_Char **attributes) {
    check_state *state = data;
    if (state->result != SEPIA_XMP_CHECK_OK) {
        return;
    }
    state->depth += 1;
    if (state->depth > state->limits->max_depth) {
        char what[96];
        snprintf(what, sizeof(what), "elements nested more than %d deep", state->limits->max_depth);
        stop(state, SEPIA_XMP_CHECK_TOO_DEEP, what);
        return;
    }
    open_element *parent = state->depth > 1 ? &state->open[state->depth - 2] : NULL;
    open_element *element = &state->open[state->depth - 1];
    element->own = 0;
    element->members = &element->own;
    element->kind = ELEMENT_OTHER;
    if (is_rdf(name, "RDF")) {
        element->kind = ELEMENT_RDF;
    } else if (is_rdf(name, "li")) {
        element->kind = ELEMENT_ITEM;
    } else if (is_rdf(name, "Description") && parent != NULL) {
        if (parent->kind == ELEMENT_RDF) {
            element->kind = ELEMENT_TOP_DESCRIPTION;
            element->members = &state->top_members;
        } else {
            element->kind = ELEMENT_NESTED_DESCRIPTION;
            element->members = parent->members;
        }
    }
    /* The element is a member of its parent, unless it is an array item or the description that holds the
     * parent's members. */
    long *membership = NULL;
    if (parent != NULL && element->kind != ELEMENT_ITEM && element->kind != ELEMENT_TOP_DESCRIPTION
        && element->kind != ELEMENT_NESTED_DESCRIPTION) {
        membership = parent->members;
    }
    if (!count(state, membership)) {
        return;
    }
    for (const XML_Char **attribute = attributes; *attribute != NULL; attribute += 2) {
        if (!count(state, element->members)) {
            return;
        }
    }
}

static void XMLCALL end_element(void *data, const XML_Char *name) {
    (void)name;
    check_state *state = data;
    if (state->result != SEPIA_XMP_CHECK_OK) {
        return;
    }
    state->depth -= 1;
}

static void XMLCALL start_namespace(void *data, const XML_Char *prefix, const XML_Char *uri) {
    (void)prefix;
    (void)uri;
    check_state *state = data;
    if (state->result != SEPIA_XMP_CHECK_OK) {
        return;
    }
    state->namespaces += 1;
    if (state->namespaces > state->limits->max_namespaces) {
        char what[96];
        snprintf(what, sizeof(what), "more than %d namespace declarations", state->limits->max_namespaces);
        stop(state, SEPIA_XMP_CHECK_TOO_MANY_NAMESPACES, what);
    }
}

static void XMLCALL start_doctype(
    void *data, const XML_Char *name, const XML_Char *system_id, const XML_Char *public_id, int has_internal_subset) {
    (void)name;
    (void)system_id;
    (void)public_id;
    (void)has_internal_subset;
    stop(data, SEPIA_XMP_CHECK_DOCTYPE, "a DOCTYPE (document type declaration)");
}

static void XMLCALL entity_declaration(void *data, const XML_Char *name, int is_parameter, const XML_Char *value,
    int value_length, const XML_Char *base, const XML_Char *system_id, const XML_Char *public_id,
    const XML_Char *notation) {
    (void)name;
    (void)is_parameter;
    (void)value;
    (void)value_length;
    (void)base;
    (void)system_id;
    (void)public_id;
    (void)notation;
    stop(data, SEPIA_XMP_CHECK_DOCTYPE, "an entity declaration");
}

sepia_xmp_check_result sepia_xmp_check(
    const char *bytes, size_t size, const sepia_xmp_limits *limits, char *message, size_t message_size) {
    if (message_size > 0) {
        message[0] = 0;
    }
    if (size > INT_MAX) {
        snprintf(message, message_size, "the packet is larger than expat can take at once");
        return SEPIA_XMP_CHECK_MALFORMED;
    }
    if (limits->max_depth < 1) {
        snprintf(message, message_size, "the depth limit must be at least 1");
        return SEPIA_XMP_CHECK_MALFORMED;
    }
    open_element *open = calloc((size_t)limits->max_depth + 1, sizeof(open_element));
    XML_Parser parser = open != NULL ? sepia_XML_ParserCreateNS(NULL, SEPARATOR) : NULL;
    if (parser == NULL) {
        free(open);
        snprintf(message, message_size, "expat could not allocate a parser");
        return SEPIA_XMP_CHECK_MALFORMED;
    }
    check_state state = {parser, limits, 0, 0, 0, 0, 0, open, SEPIA_XMP_CHECK_OK, message, message_size};
    sepia_XML_SetUserData(parser, &state);
    sepia_XML_SetElementHandler(parser, start_element, end_element);
    sepia_XML_SetStartNamespaceDeclHandler(parser, start_namespace);
    sepia_XML_SetStartDoctypeDeclHandler(parser, start_doctype);
    sepia_XML_SetEntityDeclHandler(parser, entity_declaration);
    sepia_XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER);
    enum XML_Status status = sepia_XML_Parse(parser, bytes, (int)size, 1);
    if (status != XML_STATUS_OK && state.result == SEPIA_XMP_CHECK_OK) {
        state.result = SEPIA_XMP_CHECK_MALFORMED;
        snprintf(message, message_size, "%s at line %lu, column %lu",
            sepia_XML_ErrorString(sepia_XML_GetErrorCode(parser)),
            (unsigned long)sepia_XML_GetCurrentLineNumber(parser), (unsigned long)sepia_XML_GetCurrentColumnNumber(parser) + 1);
    }
    sepia_XML_ParserFree(parser);
    free(open);
    return state.result;
}
